import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { dayOf, type UsageCount } from '../../../services/gateway/src/accounts/account-model.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { apiKeyId, hashApiKey } from '../../../services/gateway/src/auth/api-keys.ts';
import { createApiKey } from '../../../services/gateway/src/auth/key-records.ts';
import { timeUntil } from '../../support/keys/key-processes.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { AccountClient, linkToken, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';

/**
 * Keys and usage over raw HTTP, embedded mode: make, list, roll (with a short grace period),
 * revoke; only one's own keys; the audit list; usage as the store has it; a restart.
 */
let gateway: TestGateway;
let store: AccountStore;
let dataDir: string;
let owner: AccountClient;
const databasePath = () => join(dataDir, 'accounts.sqlite');
/** 0.002 h = 7.2 s: long enough to see the old secret work, short enough to see it stop. */
const ENV = { KEY_ROLL_GRACE_HOURS: '0.002', PLANS: 'free:cards=100,requests=1000;pro:cards=5000,requests=90000' };

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'account-keys-'));
  gateway = await startTestGateway({ env: { ...ENV, DATABASE_PATH: databasePath() } });
  store = openTestStore(databasePath());
  owner = new AccountClient(gateway.url);
  await owner.signInWithToken(await ownerLinkToken(store, gateway.url));
});

test.after.always(async () => {
  await store?.close();
  await gateway?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const callWith = async (key: string, path = '/v1/coin-flip') => {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: key } });
  await response.arrayBuffer();
  return response.status;
};

/** Another account, signed in with a link made for it. */
async function otherAccount(id: string): Promise<AccountClient> {
  await store.createAccount({ id, name: `Other ${id}`, discordUserId: null, plan: 'free', createdAt: new Date().toISOString() });
  const browser = new AccountClient(gateway.url);
  const link = await createSignInLink(store, { accountId: id, baseUrl: gateway.url, now: new Date() });
  await browser.signInWithToken(linkToken(link.url));
  return browser;
}

test.serial("the owner's start-up keys (API_KEYS) are listed read-only, by their public id, with their use; another account never sees them", async (t) => {
  t.is(await callWith(TEST_API_KEY), 200);
  const startupId = apiKeyId(hashApiKey(TEST_API_KEY));
  const listed = (await owner.json('/account/api/keys')).body.keys.filter((key: any) => key.startup !== undefined);
  t.true(listed.some((key: any) => key.id === startupId && key.prefix === startupId && key.startup === 'API_KEYS' && key.revokedAt === null));
  t.false(JSON.stringify(listed).includes(TEST_API_KEY), 'never the key itself');
  // Not a managed key: the area cannot roll or revoke it (it lives in the environment).
  t.is((await owner.post(`/account/api/keys/${startupId}/revoke`, {})).status, 404);
  const stranger = await otherAccount('acct_startup_stranger');
  t.false((await stranger.json('/account/api/keys')).body.keys.some((key: any) => key.startup !== undefined));
});

test.serial('a key made in the area is shown once, works at once, and is listed by its prefix only', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'my bot', scopes: ['cards', 'utility'] });
  t.is(created.status, 201);
  t.regex(created.body.key, /^uk_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
  t.is(await callWith(created.body.key), 200);
  const listed = await owner.json('/account/api/keys');
  const entry = listed.body.keys.find((key: any) => key.id === created.body.id);
  t.is(entry.prefix, created.body.prefix);
  t.deepEqual(entry.scopes, ['cards', 'utility']);
  t.is(entry.revokedAt, null);
  t.false(JSON.stringify(listed.body).includes(created.body.key), 'the list never carries a secret');
  const stored = (await store.snapshot()).records.find((record) => record.id === created.body.id)!;
  t.is(stored.accountId, OWNER_ACCOUNT_ID);
  t.is(stored.scopes, undefined, 'both scopes are stored as "everything"');
});

test.serial('scopes and names are checked; a scoped key is stored with its scope', async (t) => {
  const scoped = await owner.post('/account/api/keys', { name: 'cards only', scopes: ['cards'] });
  t.is(scoped.status, 201);
  t.deepEqual((await store.snapshot()).records.find((record) => record.id === scoped.body.id)!.scopes, ['cards']);
  for (const body of [{ name: '' }, { name: 'x'.repeat(65) }, { name: '<script>' }, { name: 'ok', scopes: ['admin'] }, { name: 'ok', scopes: 'cards' }, { name: 'ok', accountId: 'acct_other' }]) {
    const answer = await owner.post('/account/api/keys', body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.error.code, 'invalid_request');
  }
});

test.serial('roll: a new secret shown once; the old one works during the grace period, then 401', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'rolling' });
  const rolled = await owner.post(`/account/api/keys/${created.body.id}/roll`);
  t.is(rolled.status, 200);
  t.not(rolled.body.key, created.body.key);
  t.true(rolled.body.key.startsWith(`${created.body.prefix}_`), 'the same key id and prefix');
  t.is(await callWith(rolled.body.key), 200, 'the new secret works at once');
  t.is(await callWith(created.body.key), 200, 'the old one still works in its grace period');
  const listed = (await owner.json('/account/api/keys')).body.keys.find((key: any) => key.id === created.body.id);
  t.is(listed.previousValidUntil, rolled.body.previousValidUntil);
  // The grace period is 7.2 s from the roll; 20 s is the bound for a loaded machine.
  await timeUntil(async () => (await callWith(created.body.key)) === 401, 20_000, 200);
  t.is(await callWith(rolled.body.key), 200, 'the new secret keeps working');
});

test.serial('revoke: the key is refused (401) within a second; a revoked key cannot be rolled', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'doomed' });
  t.is(await callWith(created.body.key), 200);
  const revoked = await owner.post(`/account/api/keys/${created.body.id}/revoke`);
  t.is(revoked.status, 200);
  t.truthy(revoked.body.revokedAt);
  await timeUntil(async () => (await callWith(created.body.key)) === 401, 2000);
  t.is((await owner.post(`/account/api/keys/${created.body.id}/roll`)).status, 409);
  t.is((await owner.post(`/account/api/keys/${created.body.id}/revoke`)).status, 200, 'revoking again changes nothing');
});

test.serial('a key the area answered "revoked" is refused by this gateway from the next request on', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'revoked at once' });
  t.is(await callWith(created.body.key), 200);
  const revoked = await owner.post(`/account/api/keys/${created.body.id}/revoke`);
  t.is(revoked.status, 200);
  // No wait for the key poll: the revocation reached this gateway's key checks before the answer.
  const statuses = await Promise.all(Array.from({ length: 5 }, () => callWith(created.body.key)));
  t.deepEqual(statuses, [401, 401, 401, 401, 401]);
});

test.serial('only the account\'s own keys: another account can neither see, roll nor revoke them', async (t) => {
  const mine = await owner.post('/account/api/keys', { name: 'owner only' });
  const stranger = await otherAccount('acct_stranger');
  t.false((await stranger.json('/account/api/keys')).body.keys.some((key: any) => key.id === mine.body.id));
  for (const action of ['roll', 'revoke']) {
    const answer = await stranger.post(`/account/api/keys/${mine.body.id}/${action}`);
    t.is(answer.status, 404, action);
    t.is(answer.body.error.code, 'key_not_found');
  }
  t.is(await callWith(mine.body.key), 200, 'the owner\'s key is untouched');
  const theirs = await stranger.post('/account/api/keys', { name: 'stranger key' });
  t.is((await store.snapshot()).records.find((record) => record.id === theirs.body.id)!.accountId, 'acct_stranger');
  t.is((await owner.post(`/account/api/keys/${theirs.body.id}/revoke`)).status, 404);
});

test.serial('keys made before accounts (no accountId, as the CLI and old key files make them) are the owner\'s', async (t) => {
  const legacy = await createApiKey(store, { name: 'cli-made', now: new Date() });
  t.is(legacy.record.accountId, undefined);
  t.true((await owner.json('/account/api/keys')).body.keys.some((key: any) => key.id === legacy.record.id));
  const rolled = await owner.post(`/account/api/keys/${legacy.record.id}/roll`);
  t.is(rolled.status, 200);
  t.is(await callWith(rolled.body.key), 200);
  t.is((await owner.post(`/account/api/keys/${legacy.record.id}/revoke`)).status, 200);
  await timeUntil(async () => (await callWith(rolled.body.key)) === 401, 2000);
});

test.serial('the audit list names every action, who did it and the key by prefix, never a secret', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'audited' });
  const rolled = await owner.post(`/account/api/keys/${created.body.id}/roll`);
  await owner.post(`/account/api/keys/${created.body.id}/revoke`);
  const { body } = await owner.json('/account/api/audit');
  const about = body.events.filter((event: any) => event.detail.key === created.body.prefix);
  t.deepEqual(about.map((event: any) => event.type), ['key_revoked', 'key_rolled', 'key_created'], 'newest first');
  for (const event of about) t.is(event.actor, 'session:link');
  t.true(body.events.some((event: any) => event.type === 'signed_in'));
  const text = JSON.stringify(body);
  t.false(text.includes(created.body.key) || text.includes(rolled.body.key));
});

test.serial('usage: the counts in the store, per account and per key, by day, endpoint and format, against the plan', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'counted' });
  const prefix = created.body.prefix as string;
  const today = dayOf(new Date());
  const threeDaysAgo = dayOf(new Date(Date.now() - 3 * 86_400_000));
  const count = (keyId: string, day: string, metric: UsageCount['metric'], label: string, n: number): UsageCount => ({ accountId: OWNER_ACCOUNT_ID, keyId, day, metric, label, count: n });
  await store.addUsage(
    [
      count(prefix, today, 'requests', 'flipCoin', 7),
      count(prefix, today, 'requests', 'createProfileImage', 3),
      count(prefix, today, 'cards', 'png', 2),
      count(prefix, today, 'cards', 'gif', 1),
      count(prefix, today, 'rate_limited', 'flipCoin', 4),
      count(prefix, threeDaysAgo, 'requests', 'flipCoin', 5),
      count(prefix, threeDaysAgo, 'errors', 'createProfileImage', 2),
      count('key_abcdef012345', today, 'requests', 'flipCoin', 11),
      // Outside the 30 days: not shown.
      count(prefix, dayOf(new Date(Date.now() - 45 * 86_400_000)), 'requests', 'flipCoin', 1000),
    ],
    new Map([[prefix, new Date().toISOString()]]),
  );
  const all = (await owner.json('/account/api/usage')).body;
  t.is(all.days.length, 30);
  t.is(all.days.at(-1), today);
  t.deepEqual(all.totals, { requests: 26, cards: 3, rate_limited: 4, errors: 2 });
  t.is(all.series.requests.flipCoin.at(-1), 18);
  t.is(all.series.requests.flipCoin[all.days.indexOf(threeDaysAgo)], 5);
  t.deepEqual(all.keys.map((key: any) => key.keyId).sort(), ['key_abcdef012345', prefix].sort());
  const mine = (await owner.json(`/account/api/usage?key=${prefix}`)).body;
  t.deepEqual(mine.totals, { requests: 15, cards: 3, rate_limited: 4, errors: 2 });
  t.deepEqual(mine.series.cards, { png: [...Array(29).fill(0), 2], gif: [...Array(29).fill(0), 1] });
  // The local owner is on the owner plan: no limits, only the counts.
  t.is(mine.quota.plan, 'owner');
  t.is(mine.quota.cards.limit, null);
  t.is(mine.quota.requests.limit, null);
  // The month's totals come from the store (the 45-day-old count may or may not fall in this month).
  const month = await store.monthTotals(OWNER_ACCOUNT_ID, today.slice(0, 7));
  t.is(mine.quota.requests.used, month.requests);
  t.is(mine.quota.cards.used, 3);
  t.is(mine.quota.cards.remaining, null);
  const listed = (await owner.json('/account/api/keys')).body.keys.find((key: any) => key.id === created.body.id);
  t.is(listed.requestsToday, 10);
  t.truthy(listed.lastUsedAt);
  for (const bad of ['a b', '../x', 'x'.repeat(65)]) t.is((await owner.json(`/account/api/usage?key=${encodeURIComponent(bad)}`)).status, 400);
  t.is((await owner.json('/account/api/usage?key=a&key=b')).status, 400);
});

test.serial('an account may hold 25 keys that are not revoked; revoking one makes room', async (t) => {
  const stranger = await otherAccount('acct_collector');
  const ids: string[] = [];
  for (let index = 0; index < 25; index += 1) {
    const created = await stranger.post('/account/api/keys', { name: `bot ${index}` });
    t.is(created.status, 201);
    ids.push(created.body.id);
  }
  const refused = await stranger.post('/account/api/keys', { name: 'one too many' });
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'too_many_keys');
  t.is((await stranger.post(`/account/api/keys/${ids[0]}/revoke`)).status, 200);
  t.is((await stranger.post('/account/api/keys', { name: 'room again' })).status, 201);
});

test.serial('a restart keeps the session and the keys', async (t) => {
  const created = await owner.post('/account/api/keys', { name: 'survivor' });
  await gateway.close();
  gateway = await startTestGateway({ env: { ...ENV, DATABASE_PATH: databasePath() } });
  const again = new AccountClient(gateway.url);
  for (const [name, value] of owner.cookies) again.cookies.set(name, value);
  const me = await again.json('/account/api/me');
  t.is(me.status, 200);
  t.is(me.body.account.id, OWNER_ACCOUNT_ID);
  t.is(await callWith(created.body.key), 200);
  t.true((await again.json('/account/api/keys')).body.keys.some((key: any) => key.id === created.body.id));
  owner = again;
  await owner.refreshCsrf();
});
