import type { RedisClient } from '@utility-api/infra/redis';
import { apiKeyRecordSchema, parseStoredKeys, type ApiKeyRecord } from '../auth/api-keys.ts';
import { accountSchema, auditEventSchema, monthOf, sessionSchema, USAGE_METRICS, type Account, type UsageCount, type UsageMetric } from './account-model.ts';
import type { AccountStore } from './account-store.ts';

/**
 * Key names. Keys that change together in one transaction or script share a hash tag (the part
 * in braces), so they sit in one Redis Cluster slot: the key records with their version, the
 * accounts with their Discord index, and each account's usage. The key records keep the names
 * they always had.
 */
const KEY_RECORDS = 'utility-api:api-keys';
const KEY_VERSION = `{${KEY_RECORDS}}:version`;
const ACCOUNTS = '{utility-api:accounts}:records';
const ACCOUNTS_BY_DISCORD = '{utility-api:accounts}:by-discord';
const session = (idHash: string) => `utility-api:session:${idHash}`;
const accountSessions = (accountId: string) => `utility-api:account-sessions:${accountId}`;
const once = (kind: string, hash: string) => `utility-api:once:${kind}:${hash}`;
const auditList = (accountId: string) => `utility-api:audit:${accountId}`;
const usageDay = (accountId: string, day: string) => `{utility-api:usage:${accountId}}:day:${day}`;
const usageMonth = (accountId: string, month: string) => `{utility-api:usage:${accountId}}:month:${month}`;
const KEYS_LAST_USED = 'utility-api:keys-last-used';

/** Audit events kept per account (the newest). */
const AUDIT_KEPT = 1000;
/** Day counts outlive the 30 days the account area shows; month totals the month after. */
const USAGE_DAY_TTL_SECONDS = 40 * 86_400;
const USAGE_MONTH_TTL_SECONDS = 70 * 86_400;

/** Changes one key record and bumps the version in one step; returns the record as stored, or nil. */
const CHANGE_KEY_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return nil end
if current ~= ARGV[2] then return {'conflict'} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('INCR', KEYS[2])
return {'ok'}`;

/** Stores an account unless its id or its Discord user has one; returns the account stored now. */
const CREATE_ACCOUNT_SCRIPT = `
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then return existing end
if ARGV[3] ~= '' then
  local holder = redis.call('HGET', KEYS[2], ARGV[3])
  if holder then return redis.call('HGET', KEYS[1], holder) end
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ARGV[2]`;

type StoreCommands = {
  changeKeyRecord(records: string, version: string, id: string, expected: string, next: string): Promise<[string] | null>;
  createAccountRecord(accounts: string, byDiscord: string, id: string, json: string, discordUserId: string): Promise<string>;
};

/** Optimistic retries of a key change that raced with another writer of the same record. */
const CHANGE_ATTEMPTS = 10;

/** The distributed store, shared by every gateway and `pnpm keys` on the same Redis (or Cluster). */
export function redisAccountStore(client: RedisClient, location: string): AccountStore {
  const redis = client as RedisClient & StoreCommands;
  redis.defineCommand('changeKeyRecord', { numberOfKeys: 2, lua: CHANGE_KEY_SCRIPT });
  redis.defineCommand('createAccountRecord', { numberOfKeys: 2, lua: CREATE_ACCOUNT_SCRIPT });
  const parseKey = (json: string, id: string) => parseStoredKeys(apiKeyRecordSchema, json, `Redis ${KEY_RECORDS}[${id}]`);
  const parseAccount = (json: string) => parseStoredKeys(accountSchema, json, `Redis ${ACCOUNTS}`);

  /** Read, change, and write back only if nobody wrote in between (compare-and-set in Lua). */
  const changeKey = async (id: string, change: (record: ApiKeyRecord) => ApiKeyRecord | undefined): Promise<ApiKeyRecord | undefined> => {
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
      const json = await redis.hget(KEY_RECORDS, id);
      if (json === null) return undefined;
      const record = parseKey(json, id);
      const changed = change(record);
      if (changed === undefined || changed === record) return changed;
      const outcome = await redis.changeKeyRecord(KEY_RECORDS, KEY_VERSION, id, json, JSON.stringify(changed));
      if (outcome === null) return undefined;
      if (outcome[0] === 'ok') return changed;
    }
    throw new Error(`key ${id} kept changing under ${CHANGE_ATTEMPTS} attempts to update it`);
  };

  return {
    kind: 'redis',
    location,
    version: async () => (await redis.get(KEY_VERSION)) ?? '0',
    async snapshot() {
      // One transaction, so the version belongs to exactly these records.
      const replies = await redis.multi().get(KEY_VERSION).hgetall(KEY_RECORDS).exec();
      const [versionReply, recordsReply] = replies ?? [];
      if (!versionReply || !recordsReply || versionReply[0] || recordsReply[0]) {
        throw versionReply?.[0] ?? recordsReply?.[0] ?? new Error('Redis transaction was aborted');
      }
      const stored = (recordsReply[1] ?? {}) as Record<string, string>;
      return { version: (versionReply[1] as string | null) ?? '0', records: Object.entries(stored).map(([id, json]) => parseKey(json, id)) };
    },
    async insert(record) {
      const replies = await redis.multi().hsetnx(KEY_RECORDS, record.id, JSON.stringify(record)).incr(KEY_VERSION).exec();
      return replies?.[0]?.[1] === 1;
    },
    revoke: (id, at) => changeKey(id, (record) => (record.revokedAt !== null ? record : { ...record, revokedAt: at.toISOString() })),
    roll: (id, { hash, at, graceUntil, accountId }) =>
      changeKey(id, (record) => {
        if (record.revokedAt !== null || (accountId !== undefined && record.accountId !== accountId)) return undefined;
        return { ...record, hash, previousHash: record.hash, previousExpiresAt: graceUntil.toISOString(), rolledAt: at.toISOString() };
      }),

    async getAccount(id) {
      const json = await redis.hget(ACCOUNTS, id);
      return json === null ? undefined : parseAccount(json);
    },
    async accountByDiscordId(discordUserId) {
      const id = await redis.hget(ACCOUNTS_BY_DISCORD, discordUserId);
      return id === null ? undefined : this.getAccount(id);
    },
    async createAccount(account) {
      return parseAccount(await redis.createAccountRecord(ACCOUNTS, ACCOUNTS_BY_DISCORD, account.id, JSON.stringify(account), account.discordUserId ?? ''));
    },
    async listAccounts() {
      const stored = await redis.hgetall(ACCOUNTS);
      return Object.values(stored).map(parseAccount).sort((a, b) => a.id.localeCompare(b.id));
    },
    async setPlan(id, plan) {
      // Accounts change rarely and only by the operator: a WATCHed transaction is enough.
      for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
        await redis.watch(ACCOUNTS);
        const json = await redis.hget(ACCOUNTS, id);
        if (json === null) {
          await redis.unwatch();
          return undefined;
        }
        const account: Account = { ...parseAccount(json), plan };
        if (await redis.multi().hset(ACCOUNTS, id, JSON.stringify(account)).exec()) return account;
      }
      throw new Error(`account ${id} kept changing under ${CHANGE_ATTEMPTS} attempts to update it`);
    },

    async createSession(value) {
      await redis.set(session(value.idHash), JSON.stringify(value), 'PXAT', Date.parse(value.expiresAt));
      await redis.sadd(accountSessions(value.accountId), value.idHash);
    },
    async session(idHash) {
      const json = await redis.get(session(idHash));
      if (json === null) return undefined;
      const value = parseStoredKeys(sessionSchema, json, 'Redis session');
      // "Sign out everywhere" deletes the account's set in one command: a session not in it is over.
      return (await redis.sismember(accountSessions(value.accountId), idHash)) === 1 ? value : undefined;
    },
    async touchSession(idHash, lastSeenAt) {
      const json = await redis.get(session(idHash));
      if (json === null) return;
      const value = { ...parseStoredKeys(sessionSchema, json, 'Redis session'), lastSeenAt: lastSeenAt.toISOString() };
      // XX: never brings back a session deleted in between; KEEPTTL keeps its absolute end.
      await redis.set(session(idHash), JSON.stringify(value), 'KEEPTTL', 'XX');
    },
    async deleteSession(idHash) {
      const json = await redis.getdel(session(idHash));
      if (json !== null) await redis.srem(accountSessions(parseStoredKeys(sessionSchema, json, 'Redis session').accountId), idHash);
    },
    async deleteSessions(accountId) {
      const members = await redis.smembers(accountSessions(accountId));
      await redis.del(accountSessions(accountId));
      if (members.length > 0) await Promise.all(members.map((idHash) => redis.del(session(idHash))));
      return members.length;
    },

    async putOnce(kind, hash, value, expiresAt) {
      await redis.set(once(kind, hash), value, 'PXAT', expiresAt.getTime());
    },
    async takeOnce(kind, hash) {
      // GETDEL: read and gone in one command, so only one taker across every gateway gets it.
      return (await redis.getdel(once(kind, hash))) ?? undefined;
    },

    async audit(event) {
      await redis.multi().lpush(auditList(event.accountId), JSON.stringify(event)).ltrim(auditList(event.accountId), 0, AUDIT_KEPT - 1).exec();
    },
    async auditLog(accountId, limit) {
      const items = await redis.lrange(auditList(accountId), 0, limit - 1);
      return items.map((json) => parseStoredKeys(auditEventSchema, json, 'Redis audit'));
    },

    async addUsage(counts, lastUsed) {
      // One pipeline per flush; each account's keys share a slot, so a cluster sends each account's
      // commands to one node.
      const pipeline = redis.pipeline();
      const touched = new Set<string>();
      for (const count of counts) {
        const day = usageDay(count.accountId, count.day);
        pipeline.hincrby(day, `${count.keyId}|${count.metric}|${count.label}`, count.count);
        if (!touched.has(day)) pipeline.expire(day, USAGE_DAY_TTL_SECONDS);
        touched.add(day);
        if (count.metric === 'requests' || count.metric === 'cards') {
          const month = usageMonth(count.accountId, monthOf(count.day));
          pipeline.hincrby(month, count.metric, count.count);
          if (!touched.has(month)) pipeline.expire(month, USAGE_MONTH_TTL_SECONDS);
          touched.add(month);
        }
      }
      for (const [keyId, at] of lastUsed) pipeline.hset(KEYS_LAST_USED, keyId, at);
      const replies = await pipeline.exec();
      const failed = replies?.find(([error]) => error);
      if (failed) throw failed[0]!;
    },
    async usage(accountId, fromDay, toDay) {
      const days = daysBetween(fromDay, toDay);
      const pipeline = redis.pipeline();
      for (const day of days) pipeline.hgetall(usageDay(accountId, day));
      const replies = (await pipeline.exec()) ?? [];
      return days.flatMap((day, index) => {
        const fields = (replies[index]?.[1] ?? {}) as Record<string, string>;
        return Object.entries(fields).flatMap(([field, value]): UsageCount[] => {
          const [keyId = '', metric = '', label = ''] = field.split('|');
          if (!(USAGE_METRICS as readonly string[]).includes(metric)) return [];
          return [{ accountId, keyId, day, metric: metric as UsageMetric, label, count: Number(value) }];
        });
      });
    },
    async monthTotals(accountId, month) {
      const totals = await redis.hgetall(usageMonth(accountId, month));
      return { requests: Number(totals.requests ?? 0), cards: Number(totals.cards ?? 0) };
    },
    async keysLastUsed(keyIds) {
      if (keyIds.length === 0) return {};
      const values = await redis.hmget(KEYS_LAST_USED, ...keyIds);
      return Object.fromEntries(keyIds.flatMap((keyId, index) => (values[index] ? [[keyId, values[index]]] : [])));
    },
    // The connection belongs to whoever opened it (the gateway's lifecycle, or the CLI).
    async close() {},
  };
}

/** Every UTC day from `fromDay` to `toDay`, inclusive (at most 366). */
export function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${fromDay}T00:00:00Z`); at <= Date.parse(`${toDay}T00:00:00Z`) && days.length < 366; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}
