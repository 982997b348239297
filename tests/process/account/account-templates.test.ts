import { join } from 'node:path';
import test from 'ava';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { AccountClient, linkToken, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';
import { OWNER_PLAN, templatesAllowed } from '../../../services/gateway/src/accounts/plans.ts';

/**
 * The account area's templates over raw HTTP: the session's routes run the `/v1/templates`
 * operations (same schema, store, plan limit and error answers), guarded like the key routes, and
 * a template made here is one a key of the account can name in a card request.
 */
let gateway: TestGateway;
let store: AccountStore;
let owner: AccountClient;
/** `tiny` keeps two templates, to reach the limit in two requests. */
const PLANS = 'free:cards=100000,requests=1000000;tiny:cards=1000,requests=100000,templates=2';
const DESIGN = { layout: 'welcome', headline: 'Hello', borderColor: '#5865F2' };
const USER_ID = '302050872383242240';

test.before(async () => {
  // The render path too: a template is only proven usable by a card drawn from it.
  gateway = await startTestGateway({ render: true, env: { PLANS, RENDER_WORKERS: '1' } });
  store = openTestStore(join(gateway.mediaDir, 'accounts.sqlite'));
  owner = new AccountClient(gateway.url);
  await owner.signInWithToken(await ownerLinkToken(store, gateway.url));
});

test.after.always(async () => {
  await store?.close();
  await gateway?.close();
});

/** Another account (on `plan`), signed in with a link made for it. */
async function otherAccount(id: string, plan = 'free'): Promise<AccountClient> {
  await store.createAccount({ id, name: `Other ${id}`, discordUserId: null, plan, createdAt: new Date().toISOString() });
  const browser = new AccountClient(gateway.url);
  await browser.signInWithToken(linkToken((await createSignInLink(store, { accountId: id, baseUrl: gateway.url, now: new Date() })).url));
  return browser;
}

/** A state-changing call as the page sends it (Origin, CSRF token, JSON), by any method. */
const send = (client: AccountClient, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  client.json(path, {
    method,
    headers: { origin: client.origin, ...(client.csrfToken ? { 'x-csrf-token': client.csrfToken } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const auditTypes = async (client: AccountClient) => ((await client.json('/account/api/audit')).body.events as { type: string; detail: Record<string, string> }[]);

test.serial('create, list, replace and delete through the area; each change is in the activity list', async (t) => {
  const created = await send(owner, 'POST', '/account/api/templates', { name: 'Welcome, blue', fields: DESIGN });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.regex(created.body.id, /^tpl_[a-z0-9]{12}$/);
  t.is(created.response.headers.get('location'), `/v1/templates/${created.body.id}`, 'the API operation answered, Location and all');
  t.deepEqual(created.body.fields, { ...DESIGN, borderColor: '#5865f2' }, 'validated (and normalised) by the API schema');
  const id = created.body.id as string;

  const listed = await owner.json('/account/api/templates');
  t.is(listed.status, 200);
  // The local owner's plan keeps more templates than a tenant's.
  t.deepEqual(listed.body, { templates: [created.body], limit: templatesAllowed(OWNER_PLAN) });
  t.is((await store.getTemplate(OWNER_ACCOUNT_ID, id))?.name, 'Welcome, blue', 'in the store the API reads');

  const replaced = await send(owner, 'PUT', `/account/api/templates/${id}`, { name: 'Welcome, red', fields: { layout: 'welcome', borderColor: '#ED4245' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { id, name: 'Welcome, red', fields: { layout: 'welcome', borderColor: '#ed4245' }, createdAt: created.body.createdAt });
  t.deepEqual((await owner.json('/account/api/templates')).body.templates, [replaced.body]);

  const deleted = await send(owner, 'DELETE', `/account/api/templates/${id}`);
  t.is(deleted.status, 204);
  t.deepEqual((await owner.json('/account/api/templates')).body.templates, []);
  t.is((await send(owner, 'DELETE', `/account/api/templates/${id}`)).status, 404, 'gone');

  const events = await auditTypes(owner);
  const mine = events.filter((event) => event.detail.template === id).map((event) => `${event.type} ${event.detail.name}`);
  t.deepEqual(mine, ['template_deleted Welcome, red', 'template_changed Welcome, red', 'template_created Welcome, blue'], 'newest first');
});

test.serial('changes need the CSRF token and the origin, exactly like the key routes; reading needs a session', async (t) => {
  const withoutToken = await send(owner, 'POST', '/account/api/templates', { name: 'x', fields: {} }, { 'x-csrf-token': '' });
  t.is(withoutToken.status, 403);
  t.is(withoutToken.body.error.code, 'csrf_token_invalid');
  const wrongToken = await send(owner, 'DELETE', '/account/api/templates/tpl_000000000000', undefined, { 'x-csrf-token': 'wrong' });
  t.is(wrongToken.body.error.code, 'csrf_token_invalid');
  const elsewhere = await send(owner, 'PUT', '/account/api/templates/tpl_000000000000', { name: 'x', fields: {} }, { origin: 'https://evil.example' });
  t.is(elsewhere.status, 403);
  t.is(elsewhere.body.error.code, 'cross_origin_refused');
  const anonymous = new AccountClient(gateway.url);
  const list = await anonymous.json('/account/api/templates');
  t.is(list.status, 401);
  t.is(list.body.error.code, 'not_signed_in');
  t.deepEqual((await owner.json('/account/api/templates')).body.templates, [], 'nothing was made by the refused calls');
});

test.serial('bad fields are the API\'s 400, naming the field', async (t) => {
  const cases: [unknown, string][] = [
    [{ name: 'Mine', fields: { customUsername: 'Ada' } }, 'fields.customUsername'],
    [{ name: 'Mine', fields: { borderColor: 'not a colour' } }, 'fields.borderColor'],
    [{ name: '', fields: {} }, 'name'],
    [{ name: 'Mine', fields: 'layout=welcome' }, 'fields'],
  ];
  for (const [body, field] of cases) {
    const answer = await send(owner, 'POST', '/account/api/templates', body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.error.code, 'invalid_request');
    t.true(answer.body.error.details.some((detail: { in: string; field: string }) => detail.in === 'body' && detail.field === field), JSON.stringify(answer.body.error));
    t.true(answer.body.error.message.includes(field), answer.body.error.message);
  }
  const badId = await send(owner, 'PUT', '/account/api/templates/not-an-id', { name: 'x', fields: {} });
  t.is(badId.status, 400);
  t.like(badId.body.error.details[0], { in: 'path', field: 'id' });
  const notJson = await owner.json('/account/api/templates', { method: 'POST', headers: { origin: owner.origin, 'x-csrf-token': owner.csrfToken!, 'content-type': 'application/json' }, body: '{"name":' });
  t.is(notJson.status, 400);
  t.deepEqual((await owner.json('/account/api/templates')).body.templates, []);
});

test.serial('a template name is stored without controls, escape sequences, bidi overrides or lone surrogates', async (t) => {
  const created = await send(owner, 'POST', '/account/api/templates', { name: ' \u001b]0;pwned\u0007Dark\u0000 \u202emode\ud800 ', fields: DESIGN });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is(created.body.name, ']0;pwnedDark mode');
  const replaced = await send(owner, 'PUT', `/account/api/templates/${created.body.id}`, { name: 'Light\u009b2J\u2066mode', fields: DESIGN });
  t.is(replaced.body.name, 'Light2Jmode');
  // Nothing left to show is the usual 400 naming the field.
  const empty = await send(owner, 'POST', '/account/api/templates', { name: '\u001b\u202e\udc00', fields: DESIGN });
  t.is(empty.status, 400);
  t.like(empty.body.error.details[0], { in: 'body', field: 'name' });
  t.is((await send(owner, 'DELETE', `/account/api/templates/${created.body.id}`)).status, 204);
});

test.serial("another account's template is 404 and never shown", async (t) => {
  const secret = 'owner only design';
  const created = await send(owner, 'POST', '/account/api/templates', { name: secret, fields: { customTag: secret } });
  t.is(created.status, 201);
  const stranger = await otherAccount('acct_stranger1');
  for (const attempt of [
    await send(stranger, 'PUT', `/account/api/templates/${created.body.id}`, { name: 'mine now', fields: {} }),
    await send(stranger, 'DELETE', `/account/api/templates/${created.body.id}`),
  ]) {
    t.is(attempt.status, 404);
    t.is(attempt.body.error.code, 'template_not_found');
    t.false(JSON.stringify(attempt.body).includes(secret));
  }
  t.deepEqual((await stranger.json('/account/api/templates')).body.templates, []);
  t.is((await owner.json('/account/api/templates')).body.templates[0].name, secret, 'untouched');
  t.is((await send(owner, 'DELETE', `/account/api/templates/${created.body.id}`)).status, 204);
});

test.serial("the plan's limit is the API's 409 template_limit_reached", async (t) => {
  const tiny = await otherAccount('acct_tinyplan1', 'tiny');
  for (const name of ['one', 'two']) t.is((await send(tiny, 'POST', '/account/api/templates', { name, fields: {} })).status, 201);
  const third = await send(tiny, 'POST', '/account/api/templates', { name: 'three', fields: {} });
  t.is(third.status, 409);
  t.is(third.body.error.code, 'template_limit_reached');
  t.like((await tiny.json('/account/api/templates')).body, { limit: 2 });
  t.is((await tiny.json('/account/api/templates')).body.templates.length, 2);
  t.false((await auditTypes(tiny)).some((event) => event.detail.name === 'three'), 'a refused creation is not in the activity list');
});

test.serial('a template made in the area is one a key of the account names in POST /v1/profile-image', async (t) => {
  const created = await send(owner, 'POST', '/account/api/templates', { name: 'For the bot', fields: DESIGN });
  const key = await owner.post('/account/api/keys', { name: 'template bot' });
  t.is(key.status, 201);
  const card = await fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: key.body.key, 'content-type': 'application/json' },
    body: JSON.stringify({ template: created.body.id, customUsername: 'Ada', headline: 'Welcome' }),
  });
  const body = (await card.json()) as { options: unknown };
  t.is(card.status, 200, JSON.stringify(body));
  t.like(body.options, { template: created.body.id, layout: 'welcome', headline: 'Welcome', borderColor: '#5865f2', customUsername: 'Ada' });

  const stranger = await otherAccount('acct_stranger2');
  const theirKey = await stranger.post('/account/api/keys', { name: 'not yours' });
  const refused = await fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: theirKey.body.key, 'content-type': 'application/json' },
    body: JSON.stringify({ template: created.body.id }),
  });
  t.is(refused.status, 404);
  t.like(((await refused.json()) as { error: unknown }).error, { code: 'template_not_found' });
});
