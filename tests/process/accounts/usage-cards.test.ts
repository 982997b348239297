/**
 * The card side of scopes, usage and quotas, on a whole embedded gateway that draws cards: a
 * utility-only key is refused the card operations, cards are counted by the stored format, and a
 * plan's cards quota refuses the card that would pass it while the light endpoints go on.
 */
import { join } from 'node:path';
import test from 'ava';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { postJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { makeAccount, makeKey, untilStored } from '../../support/accounts/usage-helpers.ts';

const USER_ID = '302050872383242240';
const TODAY = '2024-06-15';

let gateway: TestGateway;
let store: AccountStore;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { USAGE_FLUSH_MS: '100', PLANS: 'free:cards=1000,requests=100000;cardless:cards=2,requests=1000' } });
  store = openSqliteAccountStore({ path: join(gateway.mediaDir, 'accounts.sqlite') });
});
test.after.always(async () => {
  await store?.close();
  await gateway?.close();
});

const card = (key: string, body: unknown, headers: Record<string, string> = {}, path = `/v1/profile-image?userId=${USER_ID}`) =>
  gateway.json(path, postJson(body, { headers: { authorization: key, ...headers } }));

test('a utility-only key gets 403 key_scope_forbidden on both card operations, naming the cards scope, and no card is drawn', async (t) => {
  await makeAccount(store, 'acct_utility', 'free');
  const utilityOnly = await makeKey(store, { accountId: 'acct_utility', scopes: ['utility'] });
  for (const path of [`/v1/profile-image?userId=${USER_ID}`, `/v1/profile-image/${USER_ID}`]) {
    const { status, body, response } = await card(utilityOnly.key, { customTag: 'scoped' }, {}, path);
    t.is(status, 403, path);
    t.is(body.error.code, 'key_scope_forbidden');
    t.regex(body.error.message, /"cards" scope/);
    t.is(response.headers.get('x-card-render'), null);
    t.is(response.headers.get('ratelimit-remaining'), null);
  }
  t.is((await gateway.request('/v1/coin-flip', { headers: { authorization: utilityOnly.key } })).status, 200);
  const expected = { 'requests createProfileImage': 1, 'errors createProfileImage': 1, 'requests createProfileImageForUser': 1, 'errors createProfileImageForUser': 1, 'requests coinFlip': 1 };
  t.deepEqual(await untilStored(store, 'acct_utility', TODAY, expected), expected);
});

test('cards are counted by the format of the stored card, JSON or image answers alike; a refused body is an error, not a card', async (t) => {
  await makeAccount(store, 'acct_cards', 'free');
  const { key, id } = await makeKey(store, { accountId: 'acct_cards' });
  t.is((await card(key, { customTag: 'counted png' })).status, 200);
  t.is((await card(key, { customTag: 'counted webp', format: 'webp' })).status, 200);
  const image = await gateway.request(`/v1/profile-image/${USER_ID}`, postJson({ customTag: 'counted image' }, { headers: { authorization: key, accept: 'image/png' } }));
  t.is(image.status, 200);
  t.is(image.headers.get('content-type'), 'image/png');
  await image.arrayBuffer();
  t.is((await card(key, { layout: 'banner' })).status, 400);
  const expected = {
    'requests createProfileImage': 3,
    'requests createProfileImageForUser': 1,
    'cards png': 2,
    'cards webp': 1,
    'errors createProfileImage': 1,
  };
  t.deepEqual(await untilStored(store, 'acct_cards', TODAY, expected, id), expected);
  const { body } = await gateway.json('/v1/account', { headers: { authorization: key } });
  t.deepEqual(body.cards, { limit: 1000, used: 3, remaining: 997, resetsAt: '2024-07-01T00:00:00.000Z' });
  t.is(body.key.today.cards, 3);
});

test("a plan's cards quota refuses the next card with 429 quota_exceeded naming cards; the utility endpoints go on", async (t) => {
  await makeAccount(store, 'acct_cardless', 'cardless');
  const { key } = await makeKey(store, { accountId: 'acct_cardless' });
  t.is((await card(key, { customTag: 'first of two' })).status, 200);
  t.is((await card(key, { customTag: 'second of two' })).status, 200);
  const refused = await card(key, { customTag: 'one too many' });
  t.is(refused.status, 429);
  t.is(refused.body.error.code, 'quota_exceeded');
  t.regex(refused.body.error.message, /monthly cards quota \(2 on the cardless plan\)/);
  t.is(refused.response.headers.get('retry-after'), String((Date.UTC(2024, 6, 1) - Date.UTC(2024, 5, 15, 12)) / 1000));
  t.is(refused.response.headers.get('x-card-render'), null, 'nothing was drawn');
  t.is((await gateway.request('/v1/hex-to-rgb?hex=fff', { headers: { authorization: key } })).status, 200);
  const { body } = await gateway.json('/v1/account', { headers: { authorization: key } });
  t.deepEqual(body.cards, { limit: 2, used: 2, remaining: 0, resetsAt: '2024-07-01T00:00:00.000Z' });
  // The refused card passed the requests quota (a request) and was refused its card: three card requests, one light one, this call.
  t.is(body.requests.used, 5);
  t.deepEqual(body.key.today, { day: TODAY, requests: 5, cards: 2, rateLimited: 1, errors: 0 });
});

test('a leaderboard is a card: counted by its stored format, refused by the cards quota and to a utility-only key', async (t) => {
  await makeAccount(store, 'acct_boards', 'cardless');
  const { key, id } = await makeKey(store, { accountId: 'acct_boards' });
  const board = (title: string, format?: string) => ({ title, rows: [{ rank: 1, name: 'Ada', score: 10 }], ...(format === undefined ? {} : { format }) });
  t.is((await card(key, board('first'), {}, '/v1/leaderboard-image')).status, 200);
  t.is((await card(key, board('second', 'webp'), {}, '/v1/leaderboard-image')).status, 200);
  const refused = await card(key, board('third'), {}, '/v1/leaderboard-image');
  t.is(refused.status, 429);
  t.is(refused.body.error.code, 'quota_exceeded');
  t.regex(refused.body.error.message, /monthly cards quota \(2 on the cardless plan\)/);
  // The refused third is a request refused its card (as for profile cards).
  const expected = { 'requests createLeaderboardImage': 3, 'cards png': 1, 'cards webp': 1, 'rate_limited createLeaderboardImage': 1 };
  t.deepEqual(await untilStored(store, 'acct_boards', TODAY, expected, id), expected);
  await makeAccount(store, 'acct_boards_utility', 'free');
  const utilityOnly = await makeKey(store, { accountId: 'acct_boards_utility', scopes: ['utility'] });
  const forbidden = await card(utilityOnly.key, board('scoped'), {}, '/v1/leaderboard-image');
  t.is(forbidden.status, 403);
  t.is(forbidden.body.error.code, 'key_scope_forbidden');
});
