import type { RedisClient } from '@utility-api/infra/redis';
import { KeyStoreDataError, type ApiKeyRecord } from '../auth/api-keys.ts';
import { monthOf, USAGE_METRICS, type Account, type AuditEvent, type CardLinkRender, type CardTemplate, type QuotaKind, type Session, type UsageCount, type UsageMetric } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import type { KeyInsertOutcome, KeyRecordsSnapshot } from '../auth/key-records.ts';
import {
  ACCOUNTS,
  ACCOUNTS_BY_DISCORD,
  accountSessions,
  accountTemplates,
  auditList,
  cardLinkRender,
  KEY_RECORDS,
  KEY_VERSION,
  KEYS_LAST_USED,
  once,
  quotaTaken,
  session,
  type StoreCommands,
  usageDay,
  usageMonth,
  USAGE_DAY_TTL_SECONDS,
  USAGE_MONTH_TTL_SECONDS,
  withStoreCommands,
} from './redis-store-layout.ts';
import { AUDIT_KEPT, type AccountStore, type OnceKind } from './account-store.ts';
import { keyAccountId, noAuditWanted, revokedKey, rolledKey, storedRecordReaders, type StoredRecordKind } from './store-records.ts';

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
    this.#redis = withStoreCommands(client);
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
