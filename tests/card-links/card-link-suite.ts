import type { TestFn } from 'ava';
import { cardUrl } from '@utility-api/client';
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
  rendersOf(mediaKey: string): number;
}

const PNG_SIGNATURE = '89504e470d0a1a0a';

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
    t.is(first.bytes.subarray(0, 8).toString('hex'), PNG_SIGNATURE);
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
    t.is(current.rendersOf(mediaKey), 1, 'drawn once for all three fetches');

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
    const expired = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    t.is(expired.status, 410);
    t.is(json(expired.bytes).error.code, 'card_link_expired');
    const badField = await fetchLink(cardUrl({ baseUrl: current.url, apiKey: current.apiKey, userId: USER_ID, card: { presenceStatus: 'busy' as never } }));
    t.is(badField.status, 400);
    t.like(json(badField.bytes).error, { code: 'invalid_request', details: [{ in: 'query', field: 'o.presenceStatus' }] });
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
