import type { TestFn } from 'ava';
import { cardUrl } from '@utility-api/client';
import { PNG_SIGNATURE } from '../../fixtures/images.ts';
import { createKey, runKeysCli } from '../keys/key-processes.ts';
import type { ImageServer } from '../pipeline/image-server.ts';
import { ANIMATED_SOURCES, USER_ID } from '../pipeline/profile-image-suite.ts';

/** What the card-link tests need from a running topology (embedded or distributed). */
export interface CardLinkTarget {
  url: string;
  /** A bootstrap key of the gateway (API_KEYS). */
  apiKey: string;
  images: ImageServer;
  /** The environment `pnpm keys` needs to reach this gateway's store (DATABASE_PATH, or REDIS_URL). */
  keysEnv: Record<string, string>;
  /** How many times the card stored under this media key was drawn, from the renderers' own logs. */
  rendersOf(mediaKey: string): Promise<number>;
}

async function fetchLink(link: string, headers: Record<string, string> = {}) {
  const response = await fetch(link, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as { error: { status: number; code: string; message: string; details?: { in: string; field: string }[] } };
const mediaKeyOf = (contentLocation: string | null) => /\/media\/([0-9a-f-]{36})\./.exec(contentLocation ?? '')?.[1] ?? '';

/** Waits until `check` holds (a key change reaches the gateway within its 250 ms poll), at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** This key's month counts as GET /v1/account reports them (this gateway's unflushed counts included). */
async function monthCounts(target: CardLinkTarget, key: string) {
  const response = await fetch(`${target.url}/v1/account`, { headers: { authorization: key } });
  const body = (await response.json()) as { key: { month: { requests: number; cards: number } } };
  return body.key.month;
}

/** Signed card links over HTTP, identical in both run modes: each test file calls this with its own topology. */
export function registerCardLinkTests(test: TestFn, target: () => CardLinkTarget, mode: string): void {
  test(`${mode}: a link's first fetch draws the card (new), the next is the stored card (reused, no render), If-None-Match is a 304`, async (t) => {
    const current = target();
    const card = { customTag: `${mode} link ${Date.now()}`, presenceStatus: 'online' as const };
    const link = cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card });
    const first = await fetchLink(link);
    t.is(first.status, 200, first.bytes.toString('utf8', 0, 300));
    t.is(first.headers.get('content-type'), 'image/png');
    t.is(first.bytes.subarray(0, 8).toString('hex'), PNG_SIGNATURE.toString('hex'));
    t.is(Number(first.headers.get('content-length')), first.bytes.length, 'Content-Length is the length of the image');
    t.is(first.headers.get('x-card-render'), 'new');
    t.is(first.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.is(first.headers.get('cross-origin-resource-policy'), 'cross-origin');
    const etag = first.headers.get('etag')!;
    t.regex(etag, /^"[^"]+"$/, 'a strong entity tag');
    const mediaKey = mediaKeyOf(first.headers.get('content-location'));
    t.truthy(mediaKey);
    t.true(first.headers.get('x-alt-text')!.startsWith("UTF-8''"));

    // The same card under a link with an expiry: another URL, the same stored card.
    const later = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card, expiresAt: Math.floor(Date.now() / 1000) + 3600 }));
    t.is(later.status, 200);
    t.is(later.headers.get('x-card-render'), 'reused');
    t.true(later.bytes.equals(first.bytes));
    t.is(later.headers.get('etag'), etag);
    t.regex(later.headers.get('cache-control')!, /^public, max-age=(\d+)$/, 'cached no longer than the link lives');
    t.true(Number(/max-age=(\d+)/.exec(later.headers.get('cache-control')!)![1]) <= 3600);
    const again = await fetchLink(link);
    t.is(again.headers.get('x-card-render'), 'reused');
    t.true(again.bytes.equals(first.bytes));
    t.is(await current.rendersOf(mediaKey), 1, 'drawn once for all three fetches');

    const notModified = await fetchLink(link, { 'if-none-match': etag });
    t.is(notModified.status, 304);
    t.is(notModified.bytes.length, 0);
    t.is(notModified.headers.get('etag'), etag);
    const otherTag = await fetchLink(link, { 'if-none-match': '"something-else"' });
    t.is(otherTag.status, 200);
  });

  test(`${mode}: a changed character is 403 card_link_invalid, an expired link 410, a bad field 400, all JSON`, async (t) => {
    const current = target();
    const link = cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card: { customTag: 'tamper' } });
    const digit = link.indexOf('u=') + 5;
    const tampered = [
      link.slice(0, digit) + (link[digit] === '1' ? '2' : '1') + link.slice(digit + 1),
      link.replace(/s=([0-9a-f])/, (_match, first: string) => `s=${first === '0' ? '1' : '0'}`),
      `${link}&x=1`,
      link.replace('&s=', '&e=4102444800&s='),
      `${current.url}/v1/card-link`,
      cardUrl({ baseUrl: current.url, apiKey: 'not-a-key-of-this-gateway', userId: USER_ID }),
    ];
    for (const changed of tampered) {
      const answer = await fetchLink(changed);
      t.is(answer.status, 403, changed);
      t.regex(answer.headers.get('content-type')!, /^application\/json/);
      t.is(json(answer.bytes).error.code, 'card_link_invalid');
      t.is(answer.headers.get('cache-control'), 'no-store');
    }
    // More refused links than RATE_LIMIT_AUTH_FAILURES (20 a minute) allows wrong keys: the address
    // (think of Discord's media proxy) is not blocked, and a good link still answers.
    for (let attempt = 0; attempt < 25; attempt += 1) t.is((await fetchLink(`${tampered[0]!}${attempt}`)).status, 403);
    t.is((await fetchLink(link)).status, 200, 'refused links never block the address that fetched them');
    const expired = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    t.is(expired.status, 410);
    t.is(json(expired.bytes).error.code, 'card_link_expired');
    const badField = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card: { presenceStatus: 'busy' as never } }));
    t.is(badField.status, 400);
    t.like(json(badField.bytes).error, { code: 'invalid_request', details: [{ in: 'query', field: 'o.presenceStatus' }] });
  });

  test(`${mode}: a Discord attachment URL in a link's options is a 400 that says it expires`, async (t) => {
    const current = target();
    const attachment = 'https://cdn.discordapp.com/attachments/1100000000000000000/1200000000000000000/bg.png?ex=6800&is=67ff&hm=ab12';
    const cases: [Parameters<typeof cardUrl>[0]['card'], string][] = [
      [{ customBackground: attachment }, 'o.customBackground'],
      [{ customAvatar: attachment.replace('cdn.discordapp.com', 'media.discordapp.net') }, 'o.customAvatar'],
      [{ customBadges: ['https://example.com/badge.png', attachment] }, 'o.customBadges.1'],
    ];
    for (const [card, field] of cases) {
      const refused = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card }));
      t.is(refused.status, 400, field);
      const { error } = json(refused.bytes);
      t.like(error, { code: 'invalid_request', details: [{ in: 'query', field }] });
      t.regex(error.message, /Discord attachment URL.*expire after about a day/);
    }
  });

  test(`${mode}: a revoked key's links are 403 card_link_revoked, the stored card included; a first fetch counts a request and a card, later ones nothing`, async (t) => {
    const current = target();
    const created = await createKey(current.keysEnv, ['--name', `${mode}-link-bot`]);
    const link = cardUrl({ baseUrl: current.url, apiKey: created.key, userId: USER_ID, card: { customTag: `revoke me ${mode}` } });
    t.true(link.includes(`k=${created.prefix}&`), 'the link names the key by its public prefix, never the secret');
    t.false(link.includes(created.key));
    const before = await monthCounts(current, created.key);
    const first = await fetchLink(link);
    t.is(first.status, 200, first.bytes.toString('utf8', 0, 300));
    t.is(first.headers.get('x-card-render'), 'new');
    t.is(first.headers.get('ratelimit-policy') !== null, true, "the first fetch spent the key's profile-image budget");
    const stored = await fetchLink(link);
    t.is(stored.headers.get('x-card-render'), 'reused');
    t.is(stored.headers.get('ratelimit-policy'), null, 'a stored card spends no budget');
    const after = await monthCounts(current, created.key);
    // GET /v1/account counts itself as a request too.
    t.deepEqual({ requests: after.requests - before.requests - 1, cards: after.cards - before.cards }, { requests: 1, cards: 1 });

    // A key made for the utility endpoints only signs links that are refused like its POSTs would be.
    const utilityOnly = await createKey(current.keysEnv, ['--name', `${mode}-utility-bot`, '--scopes', 'utility']);
    const outOfScope = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: utilityOnly.key, userId: USER_ID, card: { customTag: `revoke me ${mode}` } }));
    t.is(outOfScope.status, 403);
    t.is(json(outOfScope.bytes).error.code, 'key_scope_forbidden');

    const revoked = await runKeysCli(['revoke', created.id], current.keysEnv);
    t.is(revoked.code, 0, revoked.stderr);
    t.true(await eventually(async () => (await fetchLink(link)).status === 403), 'the gateway learns of the revocation');
    const refused = await fetchLink(link);
    t.is(json(refused.bytes).error.code, 'card_link_revoked');
  });

  test(`${mode}: a link to a moving design answers an animated WebP, as Discord embeds play it`, async (t) => {
    const current = target();
    const card = { animated: true, customBackground: `${current.images.url}${ANIMATED_SOURCES.gif.path}`, customTag: `${mode} moving link` };
    const answer = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card }));
    t.is(answer.status, 200, answer.bytes.toString('utf8', 0, 300));
    t.is(answer.headers.get('content-type'), 'image/webp');
    t.is(Number(answer.headers.get('content-length')), answer.bytes.length);
    t.true(Number(answer.headers.get('x-card-frames')) > 1);
    t.is(answer.bytes.toString('ascii', 0, 4), 'RIFF');
    t.true(answer.bytes.includes(Buffer.from('ANIM')), 'an animated WebP');
  });
}

/** PLANS for the topologies running these tests: `tiny` keeps two templates. */
export const TEMPLATE_PLANS = 'free:cards=100000,requests=1000000;tiny:cards=1000,requests=100000,templates=2';

/** A key of a new account of its own (on `plan`), made with `pnpm keys` against the target's store. */
async function keyOfNewAccount(target: CardLinkTarget, name: string, plan = 'free') {
  const env = { ...target.keysEnv, PLANS: TEMPLATE_PLANS };
  const made = await runKeysCli(['accounts', 'create', '--name', name, '--plan', plan, '--json'], env);
  if (made.code !== 0) throw new Error(`accounts create failed: ${made.stderr}`);
  const account = JSON.parse(made.stdout) as { id: string };
  return { accountId: account.id, ...(await createKey(env, ['--account', account.id, '--name', `${name}-bot`])) };
}

async function call(target: CardLinkTarget, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { authorization: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: (text === '' ? undefined : JSON.parse(text)) };
}

/** Templates over HTTP in both run modes: CRUD, their use by POSTs and links, isolation between accounts, the plan's bound. */
export function registerTemplateTests(test: TestFn, target: () => CardLinkTarget, mode: string): void {
  test(`${mode}: templates: create, list, read, use from a POST and a link, replace, delete`, async (t) => {
    const current = target();
    const owner = await keyOfNewAccount(current, `${mode}-designer`);
    const design = { layout: 'welcome', headline: 'Hello', borderColor: '#5865F2', customTag: `${mode} template` };
    const created = await call(current, owner.key, 'POST', '/v1/templates', { name: 'Welcome, blue', fields: design });
    t.is(created.status, 201, created.text);
    t.regex(created.body.id, /^tpl_[a-z0-9]{12}$/);
    t.is(created.headers.get('location'), `/v1/templates/${created.body.id}`);
    t.deepEqual(created.body.fields, { ...design, borderColor: '#5865f2' }, 'stored as validated: colours normalised');
    const id = created.body.id as string;

    const memberField = await call(current, owner.key, 'POST', '/v1/templates', { name: 'Mine', fields: { customUsername: 'Ada' } });
    t.is(memberField.status, 400, 'a member field is never part of a design');
    t.like(memberField.body.error.details[0], { in: 'body', field: 'fields.customUsername' });

    const attachment = await call(current, owner.key, 'POST', '/v1/templates', { name: 'Photo', fields: { customBackground: 'https://media.discordapp.net/attachments/1/2/photo.jpg?ex=1&is=2&hm=3' } });
    t.is(attachment.status, 400, 'a template is drawn for months: an attachment URL expires in a day');
    t.like(attachment.body.error.details[0], { in: 'body', field: 'fields.customBackground' });
    t.regex(attachment.body.error.details[0].message, /expire after about a day/);

    const listed = await call(current, owner.key, 'GET', '/v1/templates');
    t.deepEqual(listed.body, { templates: [created.body], limit: 25 });
    t.deepEqual((await call(current, owner.key, 'GET', `/v1/templates/${id}`)).body, created.body);

    // A POST names the template and adds the member; its own fields win.
    const card = await call(current, owner.key, 'POST', `/v1/profile-image?userId=${USER_ID}`, { template: id, customUsername: 'Ada', headline: 'Welcome' });
    t.is(card.status, 200, card.text);
    t.like(card.body.options, { template: id, layout: 'welcome', headline: 'Welcome', borderColor: '#5865f2', customUsername: 'Ada' });
    t.regex(card.body.altText, /Ada/);

    // A link names it inside `o`; it is cached briefly, so an edit shows.
    const link = cardUrl({ baseUrl: current.url, apiKey: owner.key, userId: USER_ID, card: { template: id, customUsername: 'Grace' } });
    const first = await fetchLink(link);
    t.is(first.status, 200, first.bytes.toString('utf8', 0, 300));
    t.is(first.headers.get('cache-control'), 'public, max-age=300');
    t.is(first.headers.get('x-card-render'), 'new');
    t.is((await fetchLink(link)).headers.get('x-card-render'), 'reused');

    const replaced = await call(current, owner.key, 'PUT', `/v1/templates/${id}`, { name: 'Welcome, red', fields: { ...design, borderColor: '#ED4245' } });
    t.is(replaced.status, 200, replaced.text);
    t.like(replaced.body, { id, name: 'Welcome, red', fields: { borderColor: '#ed4245' }, createdAt: created.body.createdAt });
    const edited = await fetchLink(link);
    t.is(edited.headers.get('x-card-render'), 'new', 'the edited design is drawn afresh');
    t.false(edited.bytes.equals(first.bytes));

    const deleted = await call(current, owner.key, 'DELETE', `/v1/templates/${id}`);
    t.is(deleted.status, 204);
    t.is(deleted.text, '');
    t.is((await call(current, owner.key, 'GET', `/v1/templates/${id}`)).status, 404);
    const named = await call(current, owner.key, 'POST', `/v1/profile-image?userId=${USER_ID}`, { template: id });
    t.is(named.status, 404);
    t.like(named.body.error, { code: 'template_not_found', details: [{ in: 'body', field: 'template' }] });
    const linked = await fetchLink(link);
    t.is(linked.status, 404);
    t.like(json(linked.bytes).error, { code: 'template_not_found', details: [{ in: 'query', field: 'o.template' }] });
  });

  test(`${mode}: templates: another account's template is 404 everywhere and never shows its content`, async (t) => {
    const current = target();
    const owner = await keyOfNewAccount(current, `${mode}-owner`);
    const stranger = await keyOfNewAccount(current, `${mode}-stranger`);
    const secret = `secret design ${mode}`;
    const created = await call(current, owner.key, 'POST', '/v1/templates', { name: secret, fields: { customTag: secret } });
    t.is(created.status, 201);
    const id = created.body.id as string;
    const attempts = [
      await call(current, stranger.key, 'GET', `/v1/templates/${id}`),
      await call(current, stranger.key, 'PUT', `/v1/templates/${id}`, { name: 'mine now', fields: {} }),
      await call(current, stranger.key, 'DELETE', `/v1/templates/${id}`),
      await call(current, stranger.key, 'POST', `/v1/profile-image?userId=${USER_ID}`, { template: id }),
    ];
    for (const attempt of attempts) {
      t.is(attempt.status, 404, attempt.text);
      t.is(attempt.body.error.code, 'template_not_found');
      t.false(attempt.text.includes(secret));
    }
    const link = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: stranger.key, userId: USER_ID, card: { template: id } }));
    t.is(link.status, 404);
    t.false(link.bytes.toString().includes(secret));
    t.deepEqual((await call(current, stranger.key, 'GET', '/v1/templates')).body.templates, []);
    // Untouched for its owner.
    t.deepEqual((await call(current, owner.key, 'GET', `/v1/templates/${id}`)).body, created.body);
  });

  test(`${mode}: templates: an account keeps at most its plan's number (tiny: 2), then 409 template_limit_reached`, async (t) => {
    const current = target();
    const tiny = await keyOfNewAccount(current, `${mode}-tiny`, 'tiny');
    for (const name of ['one', 'two']) t.is((await call(current, tiny.key, 'POST', '/v1/templates', { name, fields: {} })).status, 201);
    const third = await call(current, tiny.key, 'POST', '/v1/templates', { name: 'three', fields: {} });
    t.is(third.status, 409);
    t.is(third.body.error.code, 'template_limit_reached');
    t.like((await call(current, tiny.key, 'GET', '/v1/templates')).body, { limit: 2 });
  });
}

/** `POST /v1/profile-image/batch` in both run modes: results in order, each what a single POST answers, each card counted. */
export function registerBatchTests(test: TestFn, target: () => CardLinkTarget, mode: string): void {
  test(`${mode}: batch: mixed valid and invalid cards answer each its own result, in order; a valid one is what a single POST answers`, async (t) => {
    const current = target();
    const tag = `${mode} batch ${Date.now()}`;
    const cards = [
      { userId: USER_ID, customTag: tag },
      { userId: 'not-a-user' },
      { userId: USER_ID, presenceStatus: 'busy' },
      { userId: USER_ID, template: 'tpl_000000000000' },
      { userId: USER_ID, customTag: `${tag} second`, format: 'webp' },
      'not an object',
    ];
    const batch = await call(current, current.apiKey, 'POST', '/v1/profile-image/batch', { cards: cards.slice(0, 5) });
    t.is(batch.status, 200, batch.text);
    const { results } = batch.body;
    t.is(results.length, 5);
    t.like(results[0], { success: true, message: 'Image Created', options: { customTag: tag } });
    t.like(results[1].error, { status: 400, code: 'invalid_request', details: [{ in: 'body', field: 'cards.1.userId' }] });
    t.like(results[2].error, { status: 400, code: 'invalid_request', details: [{ in: 'body', field: 'cards.2.presenceStatus' }] });
    t.like(results[3].error, { status: 404, code: 'template_not_found', details: [{ in: 'body', field: 'cards.3.template' }] });
    t.regex(results[4].url, /\.webp$/);
    const single = await call(current, current.apiKey, 'POST', `/v1/profile-image?userId=${USER_ID}`, { customTag: tag });
    t.is(single.headers.get('x-card-render'), 'reused', 'the batch drew the same card a single POST asks for');
    t.deepEqual(results[0], single.body);
    t.is((await fetch(results[0].url)).headers.get('content-type'), 'image/png');

    const notAnObject = await call(current, current.apiKey, 'POST', '/v1/profile-image/batch', { cards: cards.slice(5) });
    t.is(notAnObject.status, 200, 'an item that is not an object fails only its own result');
    t.like(notAnObject.body.results[0].error, { status: 400, code: 'invalid_request', details: [{ in: 'body', field: 'cards.0' }] });
    t.truthy(notAnObject.body.results[0].error.details[0].message);
    const tooMany = await call(current, current.apiKey, 'POST', '/v1/profile-image/batch', { cards: Array.from({ length: 51 }, () => ({ userId: USER_ID })) });
    t.is(tooMany.status, 400);
    t.like(tooMany.body.error.details[0], { in: 'body', field: 'cards' });
  });

  test(`${mode}: batch: every card spends the key's profile-image budget and counts as a card; those past the budget are 429 in their own result`, async (t) => {
    const current = target();
    const created = await createKey(current.keysEnv, ['--name', `${mode}-batch-bot`, '--image-rate', '3/1h']);
    const cards = Array.from({ length: 5 }, (_, index) => ({ userId: USER_ID, customTag: `${mode} budget ${index} ${Date.now()}` }));
    const batch = await call(current, created.key, 'POST', '/v1/profile-image/batch', { cards });
    t.is(batch.status, 200, batch.text);
    const statuses = batch.body.results.map((result: { success?: boolean; error?: { status: number; code: string } }) => (result.success ? 200 : `${result.error!.status} ${result.error!.code}`));
    t.deepEqual(statuses, [200, 200, 200, '429 rate_limited', '429 rate_limited']);
    const month = await monthCounts(current, created.key);
    t.is(month.cards, 3, 'three cards drawn, three counted');
    const again = await call(current, created.key, 'POST', '/v1/profile-image/batch', { cards: cards.slice(0, 1) });
    t.is(again.status, 429, 'a key with no budget left is refused at the door');
  });
}
