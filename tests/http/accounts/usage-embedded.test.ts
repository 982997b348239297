/**
 * Scopes, usage counting, quotas and GET /v1/account over real HTTP on an embedded gateway (the
 * SQLite store), with the gateway's clock pinned (2024-06-15T12:00Z) or moved by the test. The
 * test reads what was flushed straight from the store, as the account area does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { apiKeyId, hashApiKey } from '../../../services/gateway/src/auth/api-keys.ts';
import { FIXED_NOW_MS, OTHER_API_KEY, postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { countsByMetric, makeAccount, makeKey, movableClock, untilStored } from '../../support/accounts/usage-helpers.ts';

const PLANS = 'free:cards=1000,requests=100000;tiny:cards=2,requests=5';
const TODAY = '2024-06-15';
/** From 2024-06-15T12:00Z to 2024-07-01T00:00Z. */
const SECONDS_TO_JULY = (Date.UTC(2024, 6, 1) - FIXED_NOW_MS) / 1000;

let gateway: TestGateway;
let store: AccountStore;

test.before(async () => {
  gateway = await startTestGateway({ env: { USAGE_FLUSH_MS: '100', PLANS } });
  store = openSqliteAccountStore({ path: join(gateway.mediaDir, 'accounts.sqlite') });
});
test.after.always(async () => {
  await store?.close();
  await gateway?.close();
});

const as = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: key } });

test('a cards-only key gets 403 key_scope_forbidden on a utility endpoint, naming the scope, before any budget is spent', async (t) => {
  await makeAccount(store, 'acct_scopes', 'free');
  const cardsOnly = await makeKey(store, { accountId: 'acct_scopes', scopes: ['cards'], limits: { default: { points: 2, durationSeconds: 60 } } });
  for (let index = 0; index < 3; index += 1) {
    const { status, body, response } = await gateway.json('/v1/coin-flip', as(cardsOnly.key));
    t.is(status, 403);
    t.is(body.error.code, 'key_scope_forbidden');
    t.regex(body.error.message, /"utility" scope/);
    t.is(response.headers.get('ratelimit-remaining'), null, 'no budget was looked at');
  }
  // Three refusals spent nothing of a budget of two: GET /v1/account, open to any key, is the first to spend.
  const account = await gateway.json('/v1/account', as(cardsOnly.key));
  t.is(account.status, 200);
  t.is(account.response.headers.get('ratelimit-remaining'), '1');
  t.deepEqual(account.body.key.scopes, ['cards']);
  // The refusals are counted: as requests and as errors.
  t.deepEqual(await untilStored(store, 'acct_scopes', TODAY, { 'requests coinFlip': 3, 'errors coinFlip': 3, 'requests getAccount': 1 }), {
    'requests coinFlip': 3,
    'errors coinFlip': 3,
    'requests getAccount': 1,
  });
});

test('counts after a flush match the calls made: requests by operation, 429s and errors; and they are written once', async (t) => {
  await makeAccount(store, 'acct_counts', 'free');
  const { key, id } = await makeKey(store, { accountId: 'acct_counts', limits: { default: { points: 4, durationSeconds: 60 } } });
  const statuses = [
    (await gateway.request('/v1/coin-flip', as(key))).status,
    (await gateway.request('/v1/coin-flip', as(key))).status,
    (await gateway.request('/v1/hex-to-rgb?hex=nothex', as(key))).status,
    (await gateway.request('/v1/status', as(key, postJson({ ping: 1 })))).status,
    (await gateway.request('/v1/coin-flip', as(key))).status,
    (await gateway.request('/v1/time', as(key))).status,
  ];
  t.deepEqual(statuses, [200, 200, 400, 200, 429, 429]);
  const expected = {
    'requests coinFlip': 3,
    'requests hexToRgb': 1,
    'requests statusPost': 1,
    'requests time': 1,
    'errors hexToRgb': 1,
    'rate_limited coinFlip': 1,
    'rate_limited time': 1,
  };
  t.deepEqual(await untilStored(store, 'acct_counts', TODAY, expected, id), expected);
  // Two later flushes (each carries another account's request, stored after these counts): nothing is written twice.
  await makeAccount(store, 'acct_counts_later', 'free');
  const later = await makeKey(store, { accountId: 'acct_counts_later' });
  for (const requests of [1, 2]) {
    t.is((await gateway.request('/v1/coin-flip', as(later.key))).status, 200);
    t.deepEqual(await untilStored(store, 'acct_counts_later', TODAY, { 'requests coinFlip': requests }), { 'requests coinFlip': requests });
  }
  t.deepEqual(countsByMetric(await store.usage('acct_counts', TODAY, TODAY), id), expected);
  t.deepEqual(await store.keysLastUsed([id]), { [id]: new Date(FIXED_NOW_MS).toISOString() });
});

test("GET /v1/account reports the account, its plan and quotas, and this key's own usage of today and the month", async (t) => {
  await makeAccount(store, 'acct_report', 'free');
  const first = await makeKey(store, { accountId: 'acct_report', name: 'report-bot' });
  const second = await makeKey(store, { accountId: 'acct_report' });
  for (let index = 0; index < 2; index += 1) t.is((await gateway.request('/v1/coin-flip', as(first.key))).status, 200);
  t.is((await gateway.request('/v1/number-analyzer?integer=abc', as(first.key))).status, 400);
  t.is((await gateway.request('/v1/scramble?word=hello', as(second.key))).status, 200);
  // Unknown query parameters are ignored, as on every endpoint.
  const { status, body } = await gateway.json('/v1/account?verbose=1', as(first.key));
  t.is(status, 200);
  t.deepEqual(body, {
    account: { id: 'acct_report', name: 'Account acct_report' },
    plan: { name: 'free', cards: 1000, requests: 100000 },
    quotasEnforced: true,
    cards: { limit: 1000, used: 0, remaining: 1000, resetsAt: '2024-07-01T00:00:00.000Z' },
    // Both keys' calls, this one included, flushed or not.
    requests: { limit: 100000, used: 5, remaining: 99995, resetsAt: '2024-07-01T00:00:00.000Z' },
    key: {
      id: first.id,
      name: 'report-bot',
      scopes: ['cards', 'utility'],
      today: { day: TODAY, requests: 4, cards: 0, rateLimited: 0, errors: 1 },
      month: { month: '2024-06', requests: 4, cards: 0, rateLimited: 0, errors: 1 },
      lastUsedAt: new Date(FIXED_NOW_MS).toISOString(),
    },
  });
  // The same once everything is flushed: the store's counts replace the meter's, not add to them.
  await untilStored(store, 'acct_report', TODAY, { 'requests coinFlip': 2, 'requests numberAnalyzer': 1, 'errors numberAnalyzer': 1, 'requests getAccount': 1 }, first.id);
  const later = await gateway.json('/v1/account', as(first.key));
  t.is(later.body.requests.used, 6);
  t.deepEqual(later.body.key.today, { day: TODAY, requests: 5, cards: 0, rateLimited: 0, errors: 1 });
});

test('bootstrap keys (API_KEYS) belong to the owner account and their usage counts there', async (t) => {
  const { status, body } = await gateway.json('/v1/account', as(TEST_API_KEY));
  t.is(status, 200);
  t.deepEqual(body.account, { id: OWNER_ACCOUNT_ID, name: 'Local owner' });
  t.deepEqual(body.plan, { name: 'owner', cards: null, requests: null }, "the operator's own keys have no monthly quotas");
  t.is(body.key.name, 'API_KEYS[0]');
  t.deepEqual(body.key.scopes, ['cards', 'utility']);
  const otherId = apiKeyId(hashApiKey(OTHER_API_KEY));
  for (let index = 0; index < 3; index += 1) t.is((await gateway.request('/v1/random-emoji', as(OTHER_API_KEY))).status, 200);
  t.deepEqual(await untilStored(store, OWNER_ACCOUNT_ID, TODAY, { 'requests randomEmoji': 3 }, otherId), { 'requests randomEmoji': 3 });
});

test('over quota: 429 quota_exceeded naming the quota, Retry-After to the end of the UTC month; refusals are not requests; the next month starts again', async (t) => {
  const clock = movableClock(FIXED_NOW_MS);
  const own = await startTestGateway({ clock, env: { USAGE_FLUSH_MS: '100', PLANS } });
  const ownStore = openSqliteAccountStore({ path: join(own.mediaDir, 'accounts.sqlite') });
  try {
    await makeAccount(ownStore, 'acct_tiny', 'tiny');
    const { key, id } = await makeKey(ownStore, { accountId: 'acct_tiny' });
    for (let index = 0; index < 5; index += 1) t.is((await own.request('/v1/coin-flip', as(key))).status, 200, `request ${index + 1}`);
    for (let index = 0; index < 2; index += 1) {
      const { status, body, response } = await own.json('/v1/coin-flip', as(key));
      t.is(status, 429);
      t.is(body.error.code, 'quota_exceeded');
      t.regex(body.error.message, /monthly requests quota \(5 on the tiny plan\)/);
      t.regex(body.error.message, /resets at 2024-07-01T00:00:00\.000Z/);
      t.is(response.headers.get('retry-after'), String(SECONDS_TO_JULY));
    }
    // The account call still answers over quota, to say where it stands.
    const over = await own.json('/v1/account', as(key));
    t.is(over.status, 200);
    t.deepEqual(over.body.requests, { limit: 5, used: 6, remaining: 0, resetsAt: '2024-07-01T00:00:00.000Z' });
    t.is(over.body.key.today.rateLimited, 2);
    const june = { 'requests coinFlip': 5, 'rate_limited coinFlip': 2, 'requests getAccount': 1 };
    t.deepEqual(await untilStored(ownStore, 'acct_tiny', TODAY, june, id), june);

    clock.set(Date.UTC(2024, 6, 1, 0, 0, 1));
    t.is((await own.request('/v1/coin-flip', as(key))).status, 200);
    const july = await own.json('/v1/account', as(key));
    t.deepEqual(july.body.requests, { limit: 5, used: 2, remaining: 3, resetsAt: '2024-08-01T00:00:00.000Z' });
    t.deepEqual(july.body.key.today, { day: '2024-07-01', requests: 2, cards: 0, rateLimited: 0, errors: 0 });
  } finally {
    await ownStore.close();
    await own.close();
  }
});

test('concurrent requests cannot share the last of the quota: of 12 at once, exactly the 4 left pass', async (t) => {
  await makeAccount(store, 'acct_race', 'tiny');
  const { key } = await makeKey(store, { accountId: 'acct_race' });
  // The first request reads the account; the quota of 5 then has 4 left.
  t.is((await gateway.request('/v1/coin-flip', as(key))).status, 200);
  const statuses = await Promise.all(Array.from({ length: 12 }, async () => {
    const response = await gateway.request('/v1/coin-flip', as(key));
    await response.arrayBuffer();
    return response.status;
  }));
  t.deepEqual(statuses.toSorted(), [...Array<number>(4).fill(200), ...Array<number>(8).fill(429)]);
});

test('with RATE_LIMITS=off no quota refuses, usage is still counted, and GET /v1/account says quotas are not enforced', async (t) => {
  const own = await startTestGateway({ env: { USAGE_FLUSH_MS: '100', PLANS: 'tiny:cards=0,requests=1', RATE_LIMITS: 'off' } });
  const ownStore = openSqliteAccountStore({ path: join(own.mediaDir, 'accounts.sqlite') });
  try {
    // A tenant's key: the owner's own keys have no quotas to pass anyway.
    await makeAccount(ownStore, 'acct_unlimited', 'tiny');
    const { key } = await makeKey(ownStore, { accountId: 'acct_unlimited' });
    for (let index = 0; index < 3; index += 1) t.is((await own.request('/v1/coin-flip', as(key))).status, 200);
    const { body } = await own.json('/v1/account', as(key));
    t.false(body.quotasEnforced);
    t.deepEqual(body.requests, { limit: 1, used: 4, remaining: 0, resetsAt: '2024-07-01T00:00:00.000Z' });
  } finally {
    await ownStore.close();
    await own.close();
  }
});

test('counts survive a restart: shutdown writes the last ones, and the next gateway reports them', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'usage-restart-'));
  // A flush interval longer than the test: only the shutdown flush can write these counts.
  const env = { USAGE_FLUSH_MS: '60000', PLANS, DATABASE_PATH: join(dataDir, 'accounts.sqlite') };
  try {
    const before = await startTestGateway({ env });
    for (let index = 0; index < 3; index += 1) t.is((await before.request('/v1/coin-flip')).status, 200);
    t.is((await before.request('/v1/time?unix=nope')).status, 400);
    await before.close();
    const reopened = openSqliteAccountStore({ path: env.DATABASE_PATH });
    try {
      const keyId = apiKeyId(hashApiKey(TEST_API_KEY));
      // Read once, no waiting: the gateway is gone, so what is there was written by its shutdown.
      const written = countsByMetric(await reopened.usage(OWNER_ACCOUNT_ID, TODAY, TODAY), keyId);
      t.deepEqual(written, { 'requests coinFlip': 3, 'requests time': 1, 'errors time': 1 });
    } finally {
      await reopened.close();
    }
    const after = await startTestGateway({ env });
    try {
      const { body } = await after.json('/v1/account');
      t.is(body.requests.used, 5);
      t.deepEqual(body.key.today, { day: TODAY, requests: 5, cards: 0, rateLimited: 0, errors: 1 });
    } finally {
      await after.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
