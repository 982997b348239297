import type { RedisClient } from '@utility-api/infra/redis';
import { KeyStoreDataError, type ApiKeyRecord } from '../auth/api-keys.ts';
import { monthOf, OWNER_ACCOUNT_ID, USAGE_METRICS, type Account, type AuditEvent, type CardLinkRender, type CardTemplate, type QuotaKind, type Session, type UsageCount, type UsageMetric } from './account-model.ts';
import type { KeyInsertOutcome, KeyRecordsSnapshot } from '../auth/key-records.ts';
import { AUDIT_KEPT, type AccountStore, type OnceKind } from './account-store.ts';
import { keyAccountId, noAuditWanted, revokedKey, rolledKey, storedRecordReaders, type StoredRecordKind } from './store-records.ts';

/**
 * Key names. Keys that change together in one transaction or script share a hash tag (the part
 * in braces), so they sit in one Redis Cluster slot: the key records with their version, the
 * accounts with their Discord index, and each account's usage. The key records keep the names
 * they always had. A session and its account's set cannot share a slot (a session is found by
 * its id alone), so the set decides: a session not in it is over.
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
/** Units of the account's monthly quotas taken (fields `cards`, `requests`): beside its usage, in its slot. */
const quotaTaken = (accountId: string, month: string) => `{utility-api:usage:${accountId}}:quota:${month}`;
const KEYS_LAST_USED = 'utility-api:keys-last-used';
/** An account's templates: one hash per account, so a lookup can only ever find that account's own. */
const accountTemplates = (accountId: string) => `utility-api:templates:${accountId}`;
const cardLinkRender = (jobId: string) => `utility-api:card-link:${jobId}`;

/**
 * Adds a key record unless its id is taken or (ARGV[4] >= 0) its account (ARGV[3]) already has
 * ARGV[4] keys not revoked: counted and written in one script, so gateways racing cannot go past
 * it. The count reads every record (a record without accountId is ARGV[5]'s, the local owner's):
 * keys are made by a click or the CLI, and every gateway already holds every record in memory,
 * so the records are few enough to read here.
 */
const INSERT_KEY_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'taken' end
local max = tonumber(ARGV[4])
if max >= 0 then
  local active = 0
  for _, json in ipairs(redis.call('HVALS', KEYS[1])) do
    local record = cjson.decode(json)
    local owner = record.accountId
    if owner == nil or owner == cjson.null then owner = ARGV[5] end
    if owner == ARGV[3] and (record.revokedAt == nil or record.revokedAt == cjson.null) then active = active + 1 end
  end
  if active >= max then return 'full' end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 'inserted'`;

/** Adds a template unless the account has ARGV[3] already or the id is taken: 1 when added. */
const CREATE_TEMPLATE_SCRIPT = `
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])`;

/**
 * Takes up to ARGV[2] units of quota field ARGV[1] (limit ARGV[3]; what was taken is the counter or
 * the floor ARGV[4], whichever is larger) in one step: how many were granted.
 */
const TAKE_QUOTA_SCRIPT = `
local taken = math.max(tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0'), tonumber(ARGV[4]))
local granted = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - taken))
redis.call('HSET', KEYS[1], ARGV[1], taken + granted)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return granted`;
/** Gives back ARGV[2] units of field ARGV[1], never below zero. */
const GIVE_BACK_QUOTA_SCRIPT = `
local taken = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if taken <= 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], math.max(0, taken - tonumber(ARGV[2])))
return 1`;

/** Day counts outlive the 30 days the account area shows; month totals the month after. */
const USAGE_DAY_TTL_SECONDS = 40 * 86_400;
const USAGE_MONTH_TTL_SECONDS = 70 * 86_400;

/**
 * Compare-and-set of one field of a hash of records: written only if it still holds what the
 * caller read, and then (given a second key) the version bumped in the same step. WATCH cannot do
 * this: every command of the store shares one connection, and any EXEC on it (another change, a
 * snapshot) ends every WATCH; on a Cluster, WATCH and EXEC need not even reach the same node.
 */
const CHANGE_RECORD_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return nil end
if current ~= ARGV[2] then return {'conflict'} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if KEYS[2] then redis.call('INCR', KEYS[2]) end
return {'ok'}`;

/**
 * A session joins its account's set, scored by its absolute end: ended sessions leave the set
 * (it would otherwise grow with every sign-in), so do the oldest beyond ARGV[4] (the set decides
 * whether a session is valid: their records expire on their own), and the set lives as long as
 * its last session.
 */
const ADD_SESSION_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local beyond = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if beyond > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, beyond - 1) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1`;

/** Every session of the account, taken and gone in one step; returns the live ones' ids. */
const TAKE_SESSIONS_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
redis.call('DEL', KEYS[1])
return ids`;

/** When each key was last used: a flush never moves a time back (gateways flush in any order). */
const KEYS_LAST_USED_SCRIPT = `
for index = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[index])
  if not current or current < ARGV[index + 1] then redis.call('HSET', KEYS[1], ARGV[index], ARGV[index + 1]) end
end
return 1`;

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
  changeAccountRecord(records: string, id: string, expected: string, next: string): Promise<[string] | null>;
  changeTemplateRecord(records: string, id: string, expected: string, next: string): Promise<[string] | null>;
  createAccountRecord(accounts: string, byDiscord: string, id: string, json: string, discordUserId: string): Promise<string | null>;
  addSession(sessions: string, idHash: string, expiresAtMs: number, nowMs: number, maxPerAccount: number): Promise<number>;
  insertKeyRecord(records: string, version: string, id: string, json: string, accountId: string, maxActive: number, ownerAccountId: string): Promise<KeyInsertOutcome>;
  takeSessions(sessions: string, nowMs: number): Promise<string[]>;
  setKeysLastUsed(lastUsed: string, ...idsAndTimes: string[]): Promise<number>;
  createTemplateRecord(templates: string, id: string, json: string, max: number): Promise<number>;
  takeQuota(counter: string, kind: string, amount: number, limit: number, floor: number, ttlSeconds: number): Promise<number>;
  giveBackQuota(counter: string, kind: string, amount: number): Promise<number>;
};

/**
 * Optimistic retries of a change that raced with other writers of the same record. Each round has
 * a winner, so n writers at once need up to n rounds: generous, since a record changes rarely and
 * an error here would lose a user's click.
 */
const CHANGE_ATTEMPTS = 64;

/** Where each record kind is named in a KeyStoreDataError. */
const RECORD_PLACES: Record<StoredRecordKind, (id?: string) => string> = {
  key: (id) => `Redis ${KEY_RECORDS}[${id}]`,
  account: () => `Redis ${ACCOUNTS}`,
  session: () => 'Redis session',
  template: () => 'Redis templates',
  audit: () => 'Redis audit',
  'card-link': () => 'Redis card link',
};
const read = storedRecordReaders((kind, id) => RECORD_PLACES[kind](id));

/**
 * The distributed store, shared by every gateway and `./run keys` on the same Redis (or Cluster).
 * The connection belongs to whoever opened it (the gateway's lifecycle, or the CLI): `close`
 * leaves it open.
 */
class RedisAccountStore implements AccountStore {
  readonly kind = 'redis';
  /** Where Redis is, without credentials. */
  readonly location: string;
  readonly #redis: RedisClient & StoreCommands;

  constructor(client: RedisClient, location: string) {
    this.location = location;
    const redis = client as RedisClient & StoreCommands;
    redis.defineCommand('changeKeyRecord', { numberOfKeys: 2, lua: CHANGE_RECORD_SCRIPT });
    redis.defineCommand('changeAccountRecord', { numberOfKeys: 1, lua: CHANGE_RECORD_SCRIPT });
    redis.defineCommand('createAccountRecord', { numberOfKeys: 2, lua: CREATE_ACCOUNT_SCRIPT });
    redis.defineCommand('insertKeyRecord', { numberOfKeys: 2, lua: INSERT_KEY_SCRIPT });
    redis.defineCommand('addSession', { numberOfKeys: 1, lua: ADD_SESSION_SCRIPT });
    redis.defineCommand('takeSessions', { numberOfKeys: 1, lua: TAKE_SESSIONS_SCRIPT });
    redis.defineCommand('setKeysLastUsed', { numberOfKeys: 1, lua: KEYS_LAST_USED_SCRIPT });
    redis.defineCommand('createTemplateRecord', { numberOfKeys: 1, lua: CREATE_TEMPLATE_SCRIPT });
    redis.defineCommand('changeTemplateRecord', { numberOfKeys: 1, lua: CHANGE_RECORD_SCRIPT });
    redis.defineCommand('takeQuota', { numberOfKeys: 1, lua: TAKE_QUOTA_SCRIPT });
    redis.defineCommand('giveBackQuota', { numberOfKeys: 1, lua: GIVE_BACK_QUOTA_SCRIPT });
    this.#redis = redis;
  }

  async version(): Promise<string> {
    return (await this.#redis.get(KEY_VERSION)) ?? '0';
  }

  async snapshot(): Promise<KeyRecordsSnapshot> {
    // One transaction, so the version belongs to exactly these records.
    const replies = await this.#redis.multi().get(KEY_VERSION).hgetall(KEY_RECORDS).exec();
    const [versionReply, recordsReply] = replies ?? [];
    if (!versionReply || !recordsReply || versionReply[0] || recordsReply[0]) {
      throw versionReply?.[0] ?? recordsReply?.[0] ?? new Error('Redis transaction was aborted');
    }
    const stored = (recordsReply[1] ?? {}) as Record<string, string>;
    return { version: (versionReply[1] as string | null) ?? '0', records: Object.entries(stored).map(([id, json]) => read.key(json, id)) };
  }

  async insert(record: ApiKeyRecord, maxActive?: number): Promise<KeyInsertOutcome> {
    // -1: no limit (the CLI). The records and their version share one slot, so this is one script on a Cluster too.
    return this.#redis.insertKeyRecord(KEY_RECORDS, KEY_VERSION, record.id, JSON.stringify(record), keyAccountId(record), maxActive ?? -1, OWNER_ACCOUNT_ID);
  }

  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined> {
    return this.#changeKey(id, (record) => revokedKey(record, at));
  }

  roll(id: string, change: { hash: string; at: Date; graceUntil: Date; accountId?: string }): Promise<ApiKeyRecord | undefined> {
    return this.#changeKey(id, (record) => rolledKey(record, change));
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const json = await this.#redis.hget(ACCOUNTS, id);
    return json === null ? undefined : read.account(json);
  }

  async accountByDiscordId(discordUserId: string): Promise<Account | undefined> {
    const id = await this.#redis.hget(ACCOUNTS_BY_DISCORD, discordUserId);
    return id === null ? undefined : this.getAccount(id);
  }

  async createAccount(account: Account): Promise<Account> {
    const stored = await this.#redis.createAccountRecord(ACCOUNTS, ACCOUNTS_BY_DISCORD, account.id, JSON.stringify(account), account.discordUserId ?? '');
    if (stored === null) throw new KeyStoreDataError(`Redis ${ACCOUNTS_BY_DISCORD}`, new Error(`Discord user ${account.discordUserId} names an account that is not in ${ACCOUNTS}`));
    return read.account(stored);
  }

  async listAccounts(): Promise<Account[]> {
    const stored = await this.#redis.hgetall(ACCOUNTS);
    return Object.values(stored).map(read.account).sort((a, b) => a.id.localeCompare(b.id));
  }

  setPlan(id: string, plan: string): Promise<Account | undefined> {
    return this.#changeRecord(
      `account ${id}`,
      () => this.#redis.hget(ACCOUNTS, id),
      read.account,
      (expected, next) => this.#redis.changeAccountRecord(ACCOUNTS, id, expected, next),
      (account): Account => ({ ...account, plan }),
    );
  }

  async createSession(value: Session, maxPerAccount: number): Promise<void> {
    const expiresAtMs = Date.parse(value.expiresAt);
    // The record first, then its place in the account's set, which makes it valid. A "sign out
    // everywhere" that runs in between takes the set without it: the new session stays, as if
    // made just after (it was), and nothing half-made is ever valid.
    await this.#redis.set(session(value.idHash), JSON.stringify(value), 'PXAT', expiresAtMs);
    await this.#redis.addSession(accountSessions(value.accountId), value.idHash, expiresAtMs, Date.now(), maxPerAccount);
  }

  async session(idHash: string): Promise<Session | undefined> {
    const json = await this.#redis.get(session(idHash));
    if (json === null) return undefined;
    const value = read.session(json);
    // "Sign out everywhere" takes the account's set in one step: a session not in it is over.
    return (await this.#redis.zscore(accountSessions(value.accountId), idHash)) === null ? undefined : value;
  }

  async touchSession(idHash: string, lastSeenAt: Date): Promise<void> {
    const json = await this.#redis.get(session(idHash));
    if (json === null) return;
    const value = { ...read.session(json), lastSeenAt: lastSeenAt.toISOString() };
    // XX: never brings back a session deleted in between; KEEPTTL keeps its absolute end.
    await this.#redis.set(session(idHash), JSON.stringify(value), 'KEEPTTL', 'XX');
  }

  async deleteSession(idHash: string): Promise<void> {
    const json = await this.#redis.getdel(session(idHash));
    if (json !== null) await this.#redis.zrem(accountSessions(read.session(json).accountId), idHash);
  }

  async deleteSessions(accountId: string): Promise<number> {
    const ids = await this.#redis.takeSessions(accountSessions(accountId), Date.now());
    // Already over (out of the set); the records go too, one command each (a Cluster spreads them).
    await Promise.all(ids.map((idHash) => this.#redis.del(session(idHash))));
    return ids.length;
  }

  async putOnce(kind: OnceKind, hash: string, value: string, expiresAt: Date): Promise<void> {
    // The expiry travels with the value, so `takeOnce` judges it by the caller's clock as SQLite
    // does; PXAT only clears what nobody took.
    await this.#redis.set(once(kind, hash), `${expiresAt.getTime()}|${value}`, 'PXAT', Math.max(expiresAt.getTime(), 1));
  }

  async takeOnce(kind: OnceKind, hash: string, now: Date): Promise<string | undefined> {
    // GETDEL: read and gone in one command, so only one taker across every gateway gets it.
    const stored = await this.#redis.getdel(once(kind, hash));
    if (stored === null) return undefined;
    const separator = stored.indexOf('|');
    return Number(stored.slice(0, separator)) > now.getTime() ? stored.slice(separator + 1) : undefined;
  }

  async audit(event: AuditEvent): Promise<void> {
    await this.#redis.multi().lpush(auditList(event.accountId), JSON.stringify(event)).ltrim(auditList(event.accountId), 0, AUDIT_KEPT - 1).exec();
  }

  async auditLog(accountId: string, limit: number): Promise<AuditEvent[]> {
    // LRANGE 0 -1 is the whole list: a limit of 0 must not mean "everything".
    if (noAuditWanted(limit)) return [];
    const items = await this.#redis.lrange(auditList(accountId), 0, limit - 1);
    return items.map(read.audit);
  }

  async addUsage(counts: readonly UsageCount[], lastUsed: ReadonlyMap<string, string>): Promise<void> {
    // One transaction per account: its day and month counts share its slot, so a Cluster takes
    // each whole (a pipeline or transaction across slots is refused there). HINCRBY adds on the
    // server, so flushes from several gateways never overwrite each other.
    const byAccount = Map.groupBy(counts, (count) => count.accountId);
    const writes = [...byAccount].map(async ([accountId, accountCounts]) => {
      const transaction = this.#redis.multi();
      const touched = new Set<string>();
      for (const count of accountCounts) {
        const day = usageDay(accountId, count.day);
        transaction.hincrby(day, `${count.keyId}|${count.metric}|${count.label}`, count.count);
        if (!touched.has(day)) transaction.expire(day, USAGE_DAY_TTL_SECONDS);
        touched.add(day);
        if (count.metric === 'requests' || count.metric === 'cards') {
          const month = usageMonth(accountId, monthOf(count.day));
          transaction.hincrby(month, count.metric, count.count);
          if (!touched.has(month)) transaction.expire(month, USAGE_MONTH_TTL_SECONDS);
          touched.add(month);
        }
      }
      const replies = await transaction.exec();
      const failed = replies?.find(([error]) => error);
      if (!replies || failed) throw failed?.[0] ?? new Error('Redis transaction was aborted');
    });
    if (lastUsed.size > 0) writes.push(this.#redis.setKeysLastUsed(KEYS_LAST_USED, ...[...lastUsed].flat()).then(() => undefined));
    await Promise.all(writes);
  }

  async usage(accountId: string, fromDay: string, toDay: string): Promise<UsageCount[]> {
    const days = daysBetween(fromDay, toDay);
    const pipeline = this.#redis.pipeline();
    for (const day of days) pipeline.hgetall(usageDay(accountId, day));
    const replies = (await pipeline.exec()) ?? [];
    // A failed read is an error, not a day without usage.
    const failed = replies.find(([error]) => error);
    if (failed) throw failed[0]!;
    return days.flatMap((day, index) => {
      const fields = (replies[index]?.[1] ?? {}) as Record<string, string>;
      return Object.entries(fields).flatMap(([field, value]): UsageCount[] => {
        const [keyId = '', metric = '', label = ''] = field.split('|');
        if (!(USAGE_METRICS as readonly string[]).includes(metric)) return [];
        return [{ accountId, keyId, day, metric: metric as UsageMetric, label, count: Number(value) }];
      });
    });
  }

  async takeQuota(accountId: string, month: string, kind: QuotaKind, amount: number, limit: number, floor: number): Promise<number> {
    return Number(await this.#redis.takeQuota(quotaTaken(accountId, month), kind, amount, limit, floor, USAGE_MONTH_TTL_SECONDS));
  }

  async giveBackQuota(accountId: string, month: string, kind: QuotaKind, amount: number): Promise<void> {
    await this.#redis.giveBackQuota(quotaTaken(accountId, month), kind, amount);
  }

  async monthTotals(accountId: string, month: string): Promise<{ requests: number; cards: number }> {
    const totals = await this.#redis.hgetall(usageMonth(accountId, month));
    return { requests: Number(totals.requests ?? 0), cards: Number(totals.cards ?? 0) };
  }

  async keysLastUsed(keyIds: readonly string[]): Promise<Record<string, string>> {
    if (keyIds.length === 0) return {};
    const values = await this.#redis.hmget(KEYS_LAST_USED, ...keyIds);
    return Object.fromEntries(keyIds.flatMap((keyId, index) => (values[index] ? [[keyId, values[index]]] : [])));
  }

  async createTemplate(template: CardTemplate, maxPerAccount: number): Promise<boolean> {
    return (await this.#redis.createTemplateRecord(accountTemplates(template.accountId), template.id, JSON.stringify(template), maxPerAccount)) === 1;
  }

  async getTemplate(accountId: string, id: string): Promise<CardTemplate | undefined> {
    const json = await this.#redis.hget(accountTemplates(accountId), id);
    return json === null ? undefined : read.template(json);
  }

  async listTemplates(accountId: string): Promise<CardTemplate[]> {
    const stored = await this.#redis.hgetall(accountTemplates(accountId));
    return Object.values(stored).map(read.template).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  updateTemplate(accountId: string, id: string, change: Pick<CardTemplate, 'name' | 'kind' | 'fields' | 'updatedAt'>): Promise<CardTemplate | undefined> {
    return this.#changeRecord(
      `template ${id}`,
      () => this.#redis.hget(accountTemplates(accountId), id),
      read.template,
      (expected, next) => this.#redis.changeTemplateRecord(accountTemplates(accountId), id, expected, next),
      (template): CardTemplate => ({ ...template, ...change }),
    );
  }

  async deleteTemplate(accountId: string, id: string): Promise<boolean> {
    return (await this.#redis.hdel(accountTemplates(accountId), id)) === 1;
  }

  async cardLinkRender(jobId: string): Promise<CardLinkRender | undefined> {
    // PXAT ends it on Redis's clock; nothing is kept past it to judge by the caller's.
    const json = await this.#redis.get(cardLinkRender(jobId));
    return json === null ? undefined : read.cardLink(json);
  }

  async putCardLinkRender(jobId: string, render: CardLinkRender, expiresAt: Date): Promise<void> {
    await this.#redis.set(cardLinkRender(jobId), JSON.stringify(render), 'PXAT', Math.max(expiresAt.getTime(), 1));
  }

  unavailable(): string | undefined {
    return undefined;
  }

  // The connection belongs to whoever opened it (the gateway's lifecycle, or the CLI).
  async close(): Promise<void> {}

  /** Read, change, and write back only if nobody wrote in between (compare-and-set in Lua). */
  async #changeRecord<T>(
    what: string,
    readRecord: () => Promise<string | null>,
    parse: (json: string) => T,
    write: (expected: string, next: string) => Promise<[string] | null>,
    change: (record: T) => T | undefined,
  ): Promise<T | undefined> {
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
      const json = await readRecord();
      if (json === null) return undefined;
      const record = parse(json);
      const changed = change(record);
      if (changed === undefined || changed === record) return changed;
      const outcome = await write(json, JSON.stringify(changed));
      if (outcome === null) return undefined;
      if (outcome[0] === 'ok') return changed;
    }
    throw new Error(`${what} kept changing under ${CHANGE_ATTEMPTS} attempts to update it`);
  }

  #changeKey(id: string, change: (record: ApiKeyRecord) => ApiKeyRecord | undefined): Promise<ApiKeyRecord | undefined> {
    return this.#changeRecord(
      `key ${id}`,
      () => this.#redis.hget(KEY_RECORDS, id),
      (json) => read.key(json, id),
      (expected, next) => this.#redis.changeKeyRecord(KEY_RECORDS, KEY_VERSION, id, expected, next),
      change,
    );
  }
}

/** The distributed store on `client` (see RedisAccountStore); `location` names Redis in messages. */
export function redisAccountStore(client: RedisClient, location: string): AccountStore {
  return new RedisAccountStore(client, location);
}

/** Every UTC day from `fromDay` to `toDay`, inclusive (at most 366). */
export function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${fromDay}T00:00:00Z`); at <= Date.parse(`${toDay}T00:00:00Z`) && days.length < 366; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}
