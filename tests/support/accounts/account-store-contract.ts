import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { TestFn } from 'ava';
import { createLogger, describeRedisTarget, type RedisTarget } from '@utility-api/infra';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import { AUDIT_EVENT_TYPES, dayOf, type Account, type AuditEvent, type CardTemplate, type Session, type UsageCount } from '../../../services/gateway/src/accounts/account-model.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { AUDIT_KEPT, type AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { redisAccountStore } from '../../../services/gateway/src/accounts/redis-account-store.ts';
import { createSignInLink, redeemSignInLink, SIGN_IN_LINK_TTL_MS } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { generateKeyId, generateManagedKey, hashApiKey, managedKeyPrefix, type ApiKeyRecord } from '../../../services/gateway/src/auth/api-keys.ts';
import { createApiKey } from '../../../services/gateway/src/auth/key-records.ts';
import { ApiKeyVerifier } from '../../../services/gateway/src/auth/key-verifier.ts';
import { AccountKeys, MAX_ACTIVE_KEYS } from '../../../services/gateway/src/account-area/account-keys.ts';
import { MAX_SESSIONS_PER_ACCOUNT } from '../../../services/gateway/src/account-area/sessions.ts';
import { DEFAULT_PLAN_TEMPLATES } from '../../../services/gateway/src/accounts/plans.ts';
import { ApiError } from '../../../services/gateway/src/http/api-error.ts';

/**
 * One backing store (a SQLite file, a redis-server, a Redis Cluster) and handles on it: each
 * `open` is a new database handle or a new Redis connection, as two gateways would have.
 */
export interface StoreBackend {
  open(): Promise<AccountStore>;
  /** Closes the store and what it runs on (the database handle, the Redis connection). */
  close(store: AccountStore): Promise<void>;
  /** Takes the backing store down (the redis-server, the cluster, the folder) after every store is closed. */
  stop(): Promise<void>;
}

/**
 * What every AccountStore must do, registered once per backend (tests/accounts for SQLite and
 * one redis-server, tests/cluster for a Redis Cluster). Tests run concurrently on one shared
 * backend, so each works on accounts and keys of its own (random ids).
 */
export function registerAccountStoreContract(test: TestFn, name: string, startBackend: () => Promise<StoreBackend>): void {
  const opened: AccountStore[] = [];
  let backend: StoreBackend | undefined;
  let first: AccountStore;
  let second: AccountStore;
  const open = async () => {
    const store = await backend!.open();
    opened.push(store);
    return store;
  };
  test.before(async () => {
    backend = await startBackend();
    first = await open();
    second = await open();
  });
  test.after.always(async () => {
    for (const store of opened.splice(0)) await backend?.close(store);
    await backend?.stop();
  });

  test(`${name}: accounts: create, read, list, by Discord user, plan`, async (t) => {
    const account = newAccount({ discordUserId: discordId() });
    t.deepEqual(await first.createAccount(account), account);
    t.deepEqual(await second.getAccount(account.id), account);
    t.deepEqual(await second.accountByDiscordId(account.discordUserId!), account);
    t.is(await first.getAccount('acct_nobody'), undefined);
    t.is(await first.accountByDiscordId(discordId()), undefined);
    // Same id again: the stored one comes back, unchanged.
    t.deepEqual(await second.createAccount({ ...account, name: 'Someone else' }), account);

    const plain = await first.createAccount(newAccount());
    const listed = await second.listAccounts();
    t.deepEqual(listed.filter((stored) => stored.id === account.id || stored.id === plain.id).length, 2);
    t.deepEqual(listed.map((stored) => stored.id), [...listed.map((stored) => stored.id)].sort(), 'ordered by id');

    t.deepEqual(await second.setPlan(account.id, 'pro'), { ...account, plan: 'pro' });
    t.deepEqual(await first.getAccount(account.id), { ...account, plan: 'pro' });
    t.deepEqual(await first.accountByDiscordId(account.discordUserId!), { ...account, plan: 'pro' });
    t.is(await first.setPlan('acct_nobody', 'pro'), undefined);
    t.is(await first.getAccount('acct_nobody'), undefined, 'setPlan on a missing account creates nothing');
  });

  test(`${name}: twenty sign-ins racing for one Discord user, on two connections, end in one account`, async (t) => {
    const discordUserId = discordId();
    const candidates = Array.from({ length: 20 }, () => newAccount({ discordUserId }));
    const results = await Promise.all(candidates.map((account, index) => (index % 2 === 0 ? first : second).createAccount(account)));
    const winners = new Set(results.map((account) => account.id));
    t.is(winners.size, 1, 'every racer got the same account back');
    const [winner] = results;
    t.true(candidates.some((candidate) => candidate.id === winner!.id));
    t.deepEqual(await first.accountByDiscordId(discordUserId), winner);
    const stored = (await second.listAccounts()).filter((account) => account.discordUserId === discordUserId);
    t.is(stored.length, 1);
    for (const loser of candidates.filter((candidate) => candidate.id !== winner!.id)) t.is(await first.getAccount(loser.id), undefined);
  });

  test(`${name}: quota units taken by 150 racers on two connections end at exactly the limit; given back, they can be taken again`, async (t) => {
    const account = await first.createAccount(newAccount());
    const granted = await Promise.all(Array.from({ length: 150 }, (_, index) => (index % 2 === 0 ? first : second).takeQuota(account.id, '2024-06', 'cards', 1, 25, 0)));
    t.is(granted.reduce((sum, one) => sum + one, 0), 25);
    t.is(await first.takeQuota(account.id, '2024-06', 'cards', 1, 25, 0), 0);
    await second.giveBackQuota(account.id, '2024-06', 'cards', 2);
    t.is(await first.takeQuota(account.id, '2024-06', 'cards', 5, 25, 0), 2, 'a lease is cut to what is left');
    // Another kind and another month are counters of their own; a floor above the counter counts as taken.
    t.is(await first.takeQuota(account.id, '2024-06', 'requests', 10, 100, 95), 5);
    t.is(await first.takeQuota(account.id, '2024-07', 'cards', 3, 25, 0), 3);
    await first.giveBackQuota(account.id, '2024-08', 'cards', 4);
    t.is(await first.takeQuota(account.id, '2024-08', 'cards', 1, 1, 0), 1, 'giving back never goes below zero');
  });

  test(`${name}: plans changed at once from two connections: every change lands, none is lost`, async (t) => {
    const account = await first.createAccount(newAccount());
    const plans = Array.from({ length: 12 }, (_, index) => `plan-${index}`);
    const results = await Promise.all(plans.map((plan, index) => (index % 2 === 0 ? first : second).setPlan(account.id, plan)));
    t.deepEqual(results.map((result) => result?.plan), plans);
    const final = await first.getAccount(account.id);
    t.true(plans.includes(final!.plan));
    t.deepEqual({ ...final, plan: 'x' }, { ...account, plan: 'x' }, 'the rest of the record is untouched');
  });

  test(`${name}: keys: insert once, version moves, snapshot holds them, revoke once`, async (t) => {
    const account = await first.createAccount(newAccount());
    const before = await first.version();
    const { key, record } = await createApiKey(first, { name: 'contract bot', now: new Date(), accountId: account.id, scopes: ['cards'] });
    t.not(await second.version(), before);
    t.is(await second.insert(record), 'taken', 'an id is taken once');
    const snapshot = await second.snapshot();
    t.deepEqual(snapshot.records.find((stored) => stored.id === record.id), record);
    t.true(Number(snapshot.version) <= Number(await second.version()), 'the version of exactly these records, or an earlier one');
    t.is(record.hash, hashApiKey(key).toString('hex'));
    t.deepEqual(record.scopes, ['cards']);

    const at = new Date('2026-01-02T03:04:05.000Z');
    const versionBeforeRevoke = await first.version();
    t.deepEqual(await second.revoke(record.id, at), { ...record, revokedAt: at.toISOString() });
    t.not(await first.version(), versionBeforeRevoke);
    // Revoking again keeps the first time.
    t.deepEqual(await first.revoke(record.id, new Date('2027-01-01T00:00:00.000Z')), { ...record, revokedAt: at.toISOString() });
    t.is(await first.revoke('zzzzzzzz', at), undefined);
  });

  test(`${name}: roll: the old secret works until graceUntil, the new one at once; revoked or foreign keys are refused`, async (t) => {
    const account = await first.createAccount(newAccount());
    const stranger = await first.createAccount(newAccount());
    const now = new Date();
    const inGrace = await createApiKey(first, { name: 'in grace', now, accountId: account.id });
    const pastGrace = await createApiKey(first, { name: 'past grace', now, accountId: account.id });
    const rolledIn = generateManagedKey(inGrace.record.id);
    const rolledPast = generateManagedKey(pastGrace.record.id);
    const graceUntil = new Date(Date.now() + 3_600_000);

    t.is(await second.roll(inGrace.record.id, { hash: hex(rolledIn), at: now, graceUntil, accountId: stranger.id }), undefined, "another account's key");
    const rolled = await second.roll(inGrace.record.id, { hash: hex(rolledIn), at: now, graceUntil, accountId: account.id });
    t.like(rolled, { hash: hex(rolledIn), previousHash: inGrace.record.hash, previousExpiresAt: graceUntil.toISOString(), rolledAt: now.toISOString() });
    await second.roll(pastGrace.record.id, { hash: hex(rolledPast), at: now, graceUntil: new Date(Date.now() - 1), accountId: account.id });

    const verifier = await ApiKeyVerifier.open({ bootstrapKeys: [], records: first, logger: silent, pollIntervalMs: 60_000 });
    try {
      t.is((await verifier.verify(inGrace.key))?.accountId, account.id, 'the old secret, within its grace period');
      t.is((await verifier.verify(rolledIn))?.accountId, account.id);
      t.is(await verifier.verify(pastGrace.key), undefined, 'the old secret, after its grace period');
      t.is((await verifier.verify(rolledPast))?.accountId, account.id);
    } finally {
      verifier.close();
    }

    await first.revoke(inGrace.record.id, new Date());
    t.is(await second.roll(inGrace.record.id, { hash: hex(generateManagedKey(inGrace.record.id)), at: now, graceUntil }), undefined, 'a revoked key');
    t.is((await first.snapshot()).records.find((stored) => stored.id === inGrace.record.id)?.hash, hex(rolledIn), 'a refused roll changes nothing');
    t.is(await second.roll('zzzzzzzz', { hash: hex(rolledIn), at: now, graceUntil }), undefined, 'no such key');
  });

  test(`${name}: roll: a key made before accounts (no accountId) is the local owner's`, async (t) => {
    const id = generateKeyId();
    const record: ApiKeyRecord = { id, name: 'old key', prefix: managedKeyPrefix(id), hash: hex(generateManagedKey(id)), createdAt: new Date().toISOString(), revokedAt: null };
    t.is(await first.insert(record), 'inserted');
    const graceUntil = new Date(Date.now() + 60_000);
    t.is(await second.roll(id, { hash: hex(generateManagedKey(id)), at: new Date(), graceUntil, accountId: 'acct_someone_else' }), undefined);
    t.truthy(await second.roll(id, { hash: hex(generateManagedKey(id)), at: new Date(), graceUntil, accountId: OWNER_ACCOUNT_ID }));
  });

  test(`${name}: takeOnce: exactly one of twenty concurrent takers wins; nothing after expiry; kinds apart`, async (t) => {
    const now = new Date();
    const hash = randomHash();
    await first.putOnce('sign-in-link', hash, 'acct_winner', new Date(now.getTime() + 60_000));
    t.is(await first.takeOnce('oauth-state', hash, now), undefined, 'another kind does not see it');
    const taken = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).takeOnce('sign-in-link', hash, now)));
    t.deepEqual(taken.filter((value) => value !== undefined), ['acct_winner']);
    t.is(await first.takeOnce('sign-in-link', hash, now), undefined);

    const expiring = randomHash();
    await second.putOnce('oauth-state', expiring, 'verifier', new Date(now.getTime() + 60_000));
    t.is(await first.takeOnce('oauth-state', expiring, new Date(now.getTime() + 60_000)), undefined, 'at the expiry it is over');
    t.is(await first.takeOnce('oauth-state', expiring, now), undefined, 'and a late take used it up');

    const past = randomHash();
    await first.putOnce('sign-in-link', past, 'acct_late', new Date(now.getTime() - 1));
    t.is(await second.takeOnce('sign-in-link', past, now), undefined, 'stored already expired');
  });

  test(`${name}: sign-in links: the fixed URL, the account once, refused after 15 minutes or when malformed`, async (t) => {
    const now = new Date();
    const link = await createSignInLink(first, { accountId: OWNER_ACCOUNT_ID, baseUrl: 'https://cards.example/', now });
    const match = /^https:\/\/cards\.example\/account\/sign-in#token=([A-Za-z0-9_-]{43})$/.exec(link.url);
    t.truthy(match, link.url);
    t.is(SIGN_IN_LINK_TTL_MS, 15 * 60_000);
    t.is(link.expiresAt.getTime(), now.getTime() + SIGN_IN_LINK_TTL_MS);
    const token = match![1]!;
    t.is(await redeemSignInLink(second, token, now), OWNER_ACCOUNT_ID);
    t.is(await redeemSignInLink(first, token, now), undefined, 'a second use');

    const late = await createSignInLink(first, { accountId: OWNER_ACCOUNT_ID, baseUrl: 'http://127.0.0.1:3000', now });
    const lateToken = late.url.split('#token=')[1]!;
    t.is(await redeemSignInLink(second, lateToken, new Date(now.getTime() + 15 * 60_000)), undefined, 'after 15 minutes');

    const short = await createSignInLink(first, { accountId: OWNER_ACCOUNT_ID, baseUrl: 'http://127.0.0.1:3000', now, ttlMs: 1000 });
    t.is(short.expiresAt.getTime(), now.getTime() + 1000);
    for (const hostile of ['', 'x', `${token}x`, `${token.slice(0, 42)}=`, '../../etc/passwd', 'a'.repeat(10_000)]) {
      t.is(await redeemSignInLink(first, hostile, now), undefined, hostile.slice(0, 20));
    }
  });

  test(`${name}: usage: 2 x 200 concurrent flushes from two connections add up exactly`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const day = dayOf(new Date());
    const flush = (store: AccountStore, index: number) =>
      store.addUsage(
        [
          { accountId, keyId: 'key_a', day, metric: 'requests', label: 'coinFlip', count: 1 },
          { accountId, keyId: 'key_a', day, metric: 'cards', label: 'png', count: 2 },
          { accountId, keyId: 'key_b', day, metric: 'rate_limited', label: 'coinFlip', count: 1 },
        ],
        new Map([['key_a', new Date(Date.UTC(2026, 0, 1, 0, 0, 0, index)).toISOString()]]),
      );
    await Promise.all(Array.from({ length: 200 }, (_, index) => [flush(first, index), flush(second, index)]).flat());
    const counts = await first.usage(accountId, day, day);
    t.deepEqual(sortCounts(counts), sortCounts([
      { accountId, keyId: 'key_a', day, metric: 'cards', label: 'png', count: 800 },
      { accountId, keyId: 'key_a', day, metric: 'requests', label: 'coinFlip', count: 400 },
      { accountId, keyId: 'key_b', day, metric: 'rate_limited', label: 'coinFlip', count: 400 },
    ]));
    t.deepEqual(await second.monthTotals(accountId, day.slice(0, 7)), { requests: 400, cards: 800 });
    t.deepEqual(await second.keysLastUsed(['key_a']), { key_a: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 199)).toISOString() });
  });

  test(`${name}: usage by day range and month totals: days inclusive, months apart, accounts apart`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const other = (await first.createAccount(newAccount())).id;
    const count = (day: string, metric: UsageCount['metric'], value: number, account = accountId): UsageCount => ({ accountId: account, keyId: 'key_x', day, metric, label: metric === 'cards' ? 'gif' : 'profileImage', count: value });
    await second.addUsage(
      [
        count('2026-01-31', 'requests', 5),
        count('2026-02-01', 'requests', 7),
        count('2026-02-01', 'cards', 3),
        count('2026-02-01', 'errors', 2),
        count('2026-02-28', 'requests', 11),
        count('2026-02-28', 'rate_limited', 13),
        count('2026-03-01', 'cards', 17),
        count('2026-02-10', 'requests', 1000, other),
      ],
      new Map(),
    );
    t.deepEqual(await first.monthTotals(accountId, '2026-02'), { requests: 18, cards: 3 }, 'errors and 429s are not quota');
    t.deepEqual(await first.monthTotals(accountId, '2026-01'), { requests: 5, cards: 0 });
    t.deepEqual(await first.monthTotals(accountId, '2026-04'), { requests: 0, cards: 0 });
    const february = await first.usage(accountId, '2026-02-01', '2026-02-28');
    t.deepEqual(sortCounts(february), sortCounts([count('2026-02-01', 'requests', 7), count('2026-02-01', 'cards', 3), count('2026-02-01', 'errors', 2), count('2026-02-28', 'requests', 11), count('2026-02-28', 'rate_limited', 13)]));
    t.deepEqual(await first.usage(accountId, '2026-05-01', '2026-05-31'), []);
  });

  test(`${name}: keysLastUsed: the latest time wins whatever order flushes come in`, async (t) => {
    const [keyA, keyB] = [`key_${randomBytes(6).toString('hex')}`, `key_${randomBytes(6).toString('hex')}`];
    await first.addUsage([], new Map([[keyA, '2026-03-01T10:00:00.000Z'], [keyB, '2026-03-01T09:00:00.000Z']]));
    // A gateway that flushes late with older times must not move them back.
    await second.addUsage([], new Map([[keyA, '2026-03-01T09:59:59.999Z'], [keyB, '2026-03-01T09:30:00.000Z']]));
    t.deepEqual(await first.keysLastUsed([keyA, keyB, 'key_unknown']), { [keyA]: '2026-03-01T10:00:00.000Z', [keyB]: '2026-03-01T09:30:00.000Z' });
    t.deepEqual(await first.keysLastUsed([]), {});
  });

  test(`${name}: sessions: create, read, touch, delete; a touch never brings one back`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const session = newSession(accountId);
    await first.createSession(session, MAX_SESSIONS_PER_ACCOUNT);
    t.deepEqual(await second.session(session.idHash), session);
    const seen = new Date(Date.parse(session.createdAt) + 5000);
    await second.touchSession(session.idHash, seen);
    t.deepEqual(await first.session(session.idHash), { ...session, lastSeenAt: seen.toISOString() }, 'only lastSeenAt moves');
    await first.deleteSession(session.idHash);
    t.is(await second.session(session.idHash), undefined);
    await second.touchSession(session.idHash, new Date());
    t.is(await first.session(session.idHash), undefined, 'touched after delete: still gone');
    await first.deleteSession(session.idHash);
    t.is(await first.session(randomHash()), undefined);
  });

  test(`${name}: sessions: past its absolute end a session is gone`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    // A whole second written without milliseconds (valid ISO): it must still compare as a time. Far
    // enough ahead that a loaded machine still reads it before its end (CI once took over 0.5 s here).
    const endMs = Math.ceil((Date.now() + 4000) / 1000) * 1000;
    const ending = { ...newSession(accountId), expiresAt: new Date(endMs).toISOString().replace('.000Z', 'Z') };
    await first.createSession(ending, MAX_SESSIONS_PER_ACCOUNT);
    t.truthy(await second.session(ending.idHash));
    // sleep-ok: the store compares with the real clock; this waits for the session's end to pass.
    await new Promise((resolve) => setTimeout(resolve, endMs - Date.now() + 200));
    t.is(await second.session(ending.idHash), undefined);
    await first.touchSession(ending.idHash, new Date());
    t.is(await second.session(ending.idHash), undefined, 'a touch does not revive it');
  });

  test(`${name}: sign out everywhere: every session of the account ends, others stay; racing sign-ins are all accounted for`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const otherId = (await first.createAccount(newAccount())).id;
    const mine = [newSession(accountId), newSession(accountId), newSession(accountId)];
    const theirs = newSession(otherId);
    for (const session of [...mine, theirs]) await first.createSession(session, MAX_SESSIONS_PER_ACCOUNT);
    t.is(await second.deleteSessions(accountId), 3);
    for (const session of mine) t.is(await first.session(session.idHash), undefined);
    t.deepEqual(await first.session(theirs.idHash), theirs);
    t.is(await first.deleteSessions(accountId), 0);

    // Sign-ins racing a sign-out-everywhere: each new session either ended with it (counted) or
    // was made after it and works; none is half-made, none lost track of.
    const racing = Array.from({ length: 20 }, () => newSession(accountId));
    // A per-account maximum above the 20: here only the sign-out may end a session.
    const [deleted] = await Promise.all([
      (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return second.deleteSessions(accountId);
      })(),
      ...racing.map((session, index) => (index % 2 === 0 ? first : second).createSession(session, 100)),
    ]);
    const alive = (await Promise.all(racing.map((session) => first.session(session.idHash)))).filter((session) => session !== undefined);
    t.is(deleted + alive.length, 20, `${deleted} ended, ${alive.length} alive`);
    t.is(await first.deleteSessions(accountId), alive.length);
    for (const session of racing) t.is(await second.session(session.idHash), undefined);
  });

  test(`${name}: audit: newest first, limited, per account, bounded to ${AUDIT_KEPT}`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const otherId = (await first.createAccount(newAccount())).id;
    const event = (index: number, account = accountId): AuditEvent => ({ at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(), accountId: account, type: 'key_created', actor: 'cli', detail: { index: String(index) } });
    await second.audit(event(-1, otherId));
    const total = AUDIT_KEPT + 5;
    for (let index = 0; index < total; index += 1) await (index % 2 === 0 ? first : second).audit(event(index));
    const log = await first.auditLog(accountId, AUDIT_KEPT * 2);
    t.is(log.length, AUDIT_KEPT);
    t.deepEqual(log[0], event(total - 1));
    t.deepEqual(log.at(-1), event(total - AUDIT_KEPT));
    t.deepEqual(await second.auditLog(accountId, 3), [event(total - 1), event(total - 2), event(total - 3)]);
    t.deepEqual(await second.auditLog(accountId, 0), []);
    t.deepEqual(await second.auditLog(otherId, 10), [event(-1, otherId)]);
    t.deepEqual(await second.auditLog('acct_nobody', 10), []);
  });

  test(`${name}: audit: every event type, with its actor and detail, reads back as written`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const events = AUDIT_EVENT_TYPES.map((type, index): AuditEvent => ({ at: new Date(Date.UTC(2026, 1, 1, 0, 0, index)).toISOString(), accountId, type, actor: index % 2 === 0 ? 'session:discord' : 'cli', detail: { key: 'uk_live_abcd1234', note: `"quoted" ünïcode ${index}` } }));
    for (const event of events) await first.audit(event);
    t.deepEqual(await second.auditLog(accountId, events.length), events.toReversed());
  });

  test(`${name}: templates: create, read, list in order, update, delete; another account never finds them`, async (t) => {
    const owner = (await first.createAccount(newAccount())).id;
    const stranger = (await first.createAccount(newAccount())).id;
    // A second apart: the list is oldest first by createdAt.
    const made = [newTemplate(owner, 'Welcome', -1000), newTemplate(owner, 'Rank')];
    for (const template of made) t.true(await first.createTemplate(template, 10));
    t.false(await second.createTemplate({ ...made[0]!, name: 'Same id again' }, 10), 'an id is taken once');
    t.deepEqual(await second.getTemplate(owner, made[0]!.id), made[0]);
    t.deepEqual(await second.listTemplates(owner), made);
    t.is(await second.getTemplate(stranger, made[0]!.id), undefined, "another account's id is not found");
    t.is(await second.updateTemplate(stranger, made[0]!.id, { name: 'Stolen', kind: 'profile', fields: {}, updatedAt: new Date().toISOString() }), undefined);
    t.false(await second.deleteTemplate(stranger, made[0]!.id));
    t.deepEqual(await second.listTemplates(stranger), []);
    // The kind changes with the rest of the design.
    const change = { name: 'Board v2', kind: 'leaderboard' as const, fields: { title: 'Top chatters' }, updatedAt: new Date(Date.now() + 1000).toISOString() };
    t.deepEqual(await second.updateTemplate(owner, made[0]!.id, change), { ...made[0]!, ...change });
    t.deepEqual(await first.getTemplate(owner, made[0]!.id), { ...made[0]!, ...change });
    t.true(await first.deleteTemplate(owner, made[1]!.id));
    t.false(await second.deleteTemplate(owner, made[1]!.id), 'deleted once');
    t.deepEqual((await second.listTemplates(owner)).map((template) => template.id), [made[0]!.id]);
  });

  test(`${name}: templates: twenty creations racing from two connections stop at the account's maximum`, async (t) => {
    const owner = (await first.createAccount(newAccount())).id;
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).createTemplate(newTemplate(owner, `T${index}`), 5)));
    t.is(outcomes.filter(Boolean).length, 5);
    t.is((await first.listTemplates(owner)).length, 5);
  });

  // The account area's key form checks its limit in the store, in the same step as the insert:
  // counting first and inserting after let 150 racing creators past it (170 live keys on Redis).
  for (const { existing, racing } of [{ existing: 20, racing: 150 }, { existing: 0, racing: 30 }]) {
    test(`${name}: keys: ${existing} existing keys + ${racing} creations racing from two connections end at exactly ${MAX_ACTIVE_KEYS}`, async (t) => {
      const accountId = (await first.createAccount(newAccount())).id;
      const session = newSession(accountId);
      const areas = [new AccountKeys(first, 60_000), new AccountKeys(second, 60_000)];
      for (let index = 0; index < existing; index += 1) await areas[0]!.create(session, { name: `existing ${index}` }, new Date());
      // A revoked key does not count: one more, revoked, must leave room for the same number.
      const revoked = await areas[1]!.create(session, { name: 'revoked' }, new Date());
      await areas[1]!.revoke(session, revoked.record.id, new Date());
      const outcomes = await Promise.allSettled(Array.from({ length: racing }, (_, index) => areas[index % 2]!.create(session, { name: `racer ${index}` }, new Date())));
      const made = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
      t.is(made, MAX_ACTIVE_KEYS - existing, `${made} of ${racing} racers made a key`);
      t.true(refused.every((error) => error instanceof ApiError && error.code === 'too_many_keys'), 'every other racer is refused too_many_keys');
      const live = (await second.snapshot()).records.filter((record) => record.accountId === accountId && record.revokedAt === null);
      t.is(live.length, MAX_ACTIVE_KEYS);
    });
  }

  test(`${name}: templates: 150 creations racing from two connections end at exactly the plan's ${DEFAULT_PLAN_TEMPLATES}`, async (t) => {
    const owner = (await first.createAccount(newAccount())).id;
    const outcomes = await Promise.all(Array.from({ length: 150 }, (_, index) => (index % 2 === 0 ? first : second).createTemplate(newTemplate(owner, `T${index}`), DEFAULT_PLAN_TEMPLATES)));
    t.is(outcomes.filter(Boolean).length, DEFAULT_PLAN_TEMPLATES);
    t.is((await second.listTemplates(owner)).length, DEFAULT_PLAN_TEMPLATES);
  });

  test(`${name}: sessions: 150 sign-ins racing from two connections leave the newest ${MAX_SESSIONS_PER_ACCOUNT}; other accounts untouched`, async (t) => {
    const accountId = (await first.createAccount(newAccount())).id;
    const other = newSession((await first.createAccount(newAccount())).id);
    await first.createSession(other, MAX_SESSIONS_PER_ACCOUNT);
    // Distinct ends, one millisecond apart: "newest" is the latest absolute end.
    const now = Date.now();
    const racing = Array.from({ length: 150 }, (_, index) => ({ ...newSession(accountId), expiresAt: new Date(now + 3_600_000 + index).toISOString() }));
    await Promise.all(racing.map((session, index) => (index % 2 === 0 ? first : second).createSession(session, MAX_SESSIONS_PER_ACCOUNT)));
    const alive = (await Promise.all(racing.map((session) => second.session(session.idHash)))).filter((session) => session !== undefined);
    t.deepEqual(alive.map((session) => session.idHash).sort(), racing.slice(-MAX_SESSIONS_PER_ACCOUNT).map((session) => session.idHash).sort());
    t.deepEqual(await first.session(other.idHash), other);
    t.is(await first.deleteSessions(accountId), MAX_SESSIONS_PER_ACCOUNT);
  });

  test(`${name}: card link renders: read back until they expire, unknown ones undefined`, async (t) => {
    const jobId = `card-${randomBytes(8).toString('hex')}`;
    const render = { mediaKey: '0b5a4c1e-9c4e-8d6f-a1b2-c3d4e5f60718', format: 'webp', altText: 'Profile card for Ada.', frames: 12 };
    t.is(await first.cardLinkRender(jobId, new Date()), undefined);
    await first.putCardLinkRender(jobId, render, new Date(Date.now() + 60_000));
    t.deepEqual(await second.cardLinkRender(jobId, new Date()), render);
    const short = `card-${randomBytes(8).toString('hex')}`;
    await first.putCardLinkRender(short, { mediaKey: render.mediaKey, format: 'png', altText: 'x' }, new Date(Date.now() + 200));
    // sleep-ok: a 200 ms expiry has to pass (Redis expires the key by itself).
    await new Promise((resolve) => setTimeout(resolve, 400));
    t.is(await second.cardLinkRender(short, new Date()), undefined, 'gone once expired');
  });

  test(`${name}: a store closed and opened again keeps everything`, async (t) => {
    const store = await open();
    const account = await store.createAccount(newAccount({ discordUserId: discordId() }));
    const { record } = await createApiKey(store, { name: 'survivor', now: new Date(), accountId: account.id });
    const session = newSession(account.id);
    await store.createSession(session, MAX_SESSIONS_PER_ACCOUNT);
    const hash = randomHash();
    await store.putOnce('sign-in-link', hash, account.id, new Date(Date.now() + 60_000));
    const event: AuditEvent = { at: new Date().toISOString(), accountId: account.id, type: 'account_created', actor: 'cli', detail: {} };
    await store.audit(event);
    const day = dayOf(new Date());
    await store.addUsage([{ accountId: account.id, keyId: record.prefix, day, metric: 'cards', label: 'png', count: 9 }], new Map([[record.prefix, '2026-05-05T05:05:05.005Z']]));
    await store.setPlan(account.id, 'pro');
    const version = await store.version();
    await backend!.close(opened.splice(opened.indexOf(store), 1)[0]!);

    const reopened = await open();
    t.deepEqual(await reopened.getAccount(account.id), { ...account, plan: 'pro' });
    t.deepEqual(await reopened.accountByDiscordId(account.discordUserId!), { ...account, plan: 'pro' });
    t.deepEqual((await reopened.snapshot()).records.find((stored) => stored.id === record.id), record);
    // Other tests write keys meanwhile: the version only ever moves forward.
    t.true(Number(await reopened.version()) >= Number(version));
    t.deepEqual(await reopened.session(session.idHash), session);
    t.is(await reopened.takeOnce('sign-in-link', hash, new Date()), account.id);
    t.deepEqual(await reopened.auditLog(account.id, 10), [event]);
    t.deepEqual(await reopened.monthTotals(account.id, day.slice(0, 7)), { requests: 0, cards: 9 });
    t.deepEqual(await reopened.keysLastUsed([record.prefix]), { [record.prefix]: '2026-05-05T05:05:05.005Z' });
  });
}

const silent = createLogger({ service: 'account-store-contract', level: 'silent' });

const hex = (key: string) => hashApiKey(key).toString('hex');
const randomHash = () => randomBytes(32).toString('hex');

function discordId(): string {
  return `1${Array.from(randomBytes(17), (byte) => byte % 10).join('')}`;
}

function newTemplate(accountId: string, name: string, ageMs = 0): CardTemplate {
  const at = new Date(Date.now() + ageMs).toISOString();
  return { id: `tpl_${randomBytes(6).toString('hex')}`, accountId, name, kind: 'profile', fields: { customTag: name, borderColor: '#5865F2' }, createdAt: at, updatedAt: at };
}

function newAccount(overrides: Partial<Account> = {}): Account {
  return { id: `acct_${randomBytes(8).toString('hex')}`, name: 'Contract account', discordUserId: null, plan: 'free', createdAt: new Date().toISOString(), ...overrides };
}

function newSession(accountId: string): Session {
  const now = Date.now();
  return {
    idHash: randomHash(),
    accountId,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: new Date(now).toISOString(),
    lastSeenAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 3_600_000).toISOString(),
    method: 'link',
  };
}

function sortCounts(counts: readonly UsageCount[]): UsageCount[] {
  const key = (count: UsageCount) => `${count.day}|${count.keyId}|${count.metric}|${count.label}`;
  return [...counts].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * A Redis backend (one server or a Cluster): each store on a producer connection of its own, as
 * the gateway and the CLI open them; `stop` takes the server or cluster down.
 */
export function redisBackend(target: RedisTarget, stop: () => Promise<void>): StoreBackend {
  const connections = new Map<AccountStore, RedisClient>();
  return {
    async open() {
      const client = createRedisConnection(target, 'producer', 'account-store-test');
      // A producer connection has no offline queue: it answers only once ready.
      if (client.status !== 'ready') await once(client, 'ready');
      const store = redisAccountStore(client, describeRedisTarget(target));
      connections.set(store, client);
      return store;
    },
    async close(store) {
      await store.close();
      connections.get(store)?.disconnect();
      connections.delete(store);
    },
    stop,
  };
}
