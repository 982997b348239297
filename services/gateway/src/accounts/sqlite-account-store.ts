import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { KeyInsertOutcome, KeyRecordsSnapshot } from '../auth/key-records.ts';
import { type Account, type AuditEvent, type CardLinkRender, type CardTemplate, type QuotaKind, type Session, type UsageCount } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { AUDIT_KEPT, type AccountStore, type OnceKind } from './account-store.ts';
import { importKeysFileOnce, migrate, writeTransaction } from './sqlite-schema.ts';
import { StoreFileWatch, StoreUnavailableError } from './store-file-watch.ts';
import { keyAccountId, noAuditWanted, revokedKey, rolledKey, storedRecordReaders, type StoredRecordReaders } from './store-records.ts';

/** How long a writer waits for another process's write lock (the CLI beside a running gateway). */
const BUSY_TIMEOUT_MS = 5000;
/** Expired sessions and one-time tokens are swept at most this often, on a write. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Instants as the columns hold them: always `toISOString()` (milliseconds, `Z`), so comparing the
 * text compares the times. A valid record may say `...:00Z` or `...:00.5Z`, which do not compare.
 */
const instant = (text: string) => new Date(text).toISOString();

/**
 * The embedded store: one SQLite file in WAL mode (readers never wait for the writer), opened by
 * the gateway and by `./run keys` at once. Every change is one transaction, so the CLI and the
 * gateway never lose each other's writes. node:sqlite is synchronous: each statement is
 * microseconds on a local file, and the gateway writes only on account actions and on usage
 * flushes, never per request. Opening it (the constructor) creates and migrates the file; `close`
 * closes it.
 */
class SqliteAccountStore implements AccountStore {
  readonly kind = 'sqlite';
  /** The database file's absolute path. */
  readonly location: string;
  readonly #db: DatabaseSync;
  readonly #watch: StoreFileWatch;
  readonly #read: StoredRecordReaders;
  readonly #bumpKeysVersion: StatementSync;
  readonly #keysVersion: StatementSync;
  readonly #keyById: StatementSync;
  readonly #activeKeysOf: StatementSync;
  readonly #putKey: StatementSync;
  #lastSweep = 0;

  constructor(options: { path: string; keysFile?: string | undefined }) {
    const path = resolve(options.path);
    this.location = path;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's
    // mode, and the database holds key and session hashes and every account.
    closeSync(openSync(path, 'a', 0o600));
    const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
    this.#db = db;
    // FULL: every commit is fsynced, so a change reported done survives a power cut too. Writes are
    // account actions and usage flushes every few seconds, never one per request: the fsync is cheap.
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
    migrate(db);
    if (options.keysFile !== undefined) importKeysFileOnce(db, resolve(options.keysFile));
    this.#watch = new StoreFileWatch(path);
    this.#read = storedRecordReaders(() => path);
    this.#bumpKeysVersion = db.prepare(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE name = 'keys_version'`);
    this.#keysVersion = db.prepare(`SELECT value FROM meta WHERE name = 'keys_version'`);
    this.#keyById = db.prepare('SELECT record FROM api_keys WHERE id = ?');
    // A record without accountId is the local owner's (keys made before accounts: store-records.ts `keyAccountId`).
    this.#activeKeysOf = db.prepare(`SELECT COUNT(*) AS count FROM api_keys WHERE COALESCE(json_extract(record, '$.accountId'), '${OWNER_ACCOUNT_ID}') = ? AND json_extract(record, '$.revokedAt') IS NULL`);
    this.#putKey = db.prepare('INSERT OR REPLACE INTO api_keys (id, record) VALUES (?, ?)');
  }

  async version(): Promise<string> {
    return (this.#keysVersion.get() as { value: string }).value;
  }

  async snapshot(): Promise<KeyRecordsSnapshot> {
    // One read transaction: the version belongs to exactly these records.
    this.#db.exec('BEGIN');
    try {
      const version = (this.#keysVersion.get() as { value: string }).value;
      const records = (this.#db.prepare('SELECT record FROM api_keys').all() as { record: string }[]).map((row) => this.#read.key(row.record));
      return { version, records };
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  async insert(record: ApiKeyRecord, maxActive?: number): Promise<KeyInsertOutcome> {
    // BEGIN IMMEDIATE takes the write lock before the count: a second writer (another handle,
    // the CLI, another process) waits for this commit and then counts this key too.
    return this.#transaction(() => {
      if (this.#keyById.get(record.id)) return 'taken';
      if (maxActive !== undefined && Number((this.#activeKeysOf.get(keyAccountId(record)) as { count: number }).count) >= maxActive) return 'full';
      this.#putKey.run(record.id, JSON.stringify(record));
      this.#bumpKeysVersion.run();
      return 'inserted';
    });
  }

  async revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined> {
    return this.#changeKey(id, (record) => revokedKey(record, at));
  }

  async roll(id: string, change: { hash: string; at: Date; graceUntil: Date; accountId?: string }): Promise<ApiKeyRecord | undefined> {
    return this.#changeKey(id, (record) => rolledKey(record, change));
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = this.#db.prepare('SELECT record FROM accounts WHERE id = ?').get(id) as { record: string } | undefined;
    return row && this.#read.account(row.record);
  }

  async accountByDiscordId(discordUserId: string): Promise<Account | undefined> {
    const row = this.#db.prepare('SELECT record FROM accounts WHERE discord_user_id = ?').get(discordUserId) as { record: string } | undefined;
    return row && this.#read.account(row.record);
  }

  async createAccount(account: Account): Promise<Account> {
    return this.#transaction(() => {
      const existing = this.#db.prepare('SELECT record FROM accounts WHERE id = ? OR (discord_user_id IS NOT NULL AND discord_user_id = ?)').get(account.id, account.discordUserId) as { record: string } | undefined;
      if (existing) return this.#read.account(existing.record);
      this.#db.prepare('INSERT INTO accounts (id, discord_user_id, record) VALUES (?, ?, ?)').run(account.id, account.discordUserId, JSON.stringify(account));
      return account;
    });
  }

  async listAccounts(): Promise<Account[]> {
    return (this.#db.prepare('SELECT record FROM accounts ORDER BY id').all() as { record: string }[]).map((row) => this.#read.account(row.record));
  }

  async setPlan(id: string, plan: string): Promise<Account | undefined> {
    return this.#transaction(() => {
      const row = this.#db.prepare('SELECT record FROM accounts WHERE id = ?').get(id) as { record: string } | undefined;
      if (!row) return undefined;
      const account: Account = { ...this.#read.account(row.record), plan };
      this.#db.prepare('UPDATE accounts SET record = ? WHERE id = ?').run(JSON.stringify(account), id);
      return account;
    });
  }

  async createSession(session: Session, maxPerAccount: number): Promise<void> {
    this.#writable();
    this.#sweep(new Date());
    this.#transaction(() => {
      this.#db.prepare('INSERT INTO sessions (id_hash, account_id, expires_at, record) VALUES (?, ?, ?, ?)').run(session.idHash, session.accountId, instant(session.expiresAt), JSON.stringify(session));
      // The account keeps its newest (latest absolute end) sessions; the oldest end in the same step.
      this.#db
        .prepare('DELETE FROM sessions WHERE account_id = ? AND id_hash NOT IN (SELECT id_hash FROM sessions WHERE account_id = ? ORDER BY expires_at DESC, id_hash DESC LIMIT ?)')
        .run(session.accountId, session.accountId, maxPerAccount);
    });
  }

  async session(idHash: string): Promise<Session | undefined> {
    // Past its absolute end a session is gone, swept or not (Redis expires it on its own).
    const row = this.#db.prepare('SELECT record FROM sessions WHERE id_hash = ? AND expires_at > ?').get(idHash, new Date().toISOString()) as { record: string } | undefined;
    return row && this.#read.session(row.record);
  }

  async touchSession(idHash: string, lastSeenAt: Date): Promise<void> {
    this.#transaction(() => {
      const row = this.#db.prepare('SELECT record FROM sessions WHERE id_hash = ?').get(idHash) as { record: string } | undefined;
      if (!row) return;
      const session: Session = { ...this.#read.session(row.record), lastSeenAt: lastSeenAt.toISOString() };
      this.#db.prepare('UPDATE sessions SET record = ? WHERE id_hash = ?').run(JSON.stringify(session), idHash);
    });
  }

  async deleteSession(idHash: string): Promise<void> {
    this.#writable();
    this.#db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
  }

  async deleteSessions(accountId: string): Promise<number> {
    this.#writable();
    return Number(this.#db.prepare('DELETE FROM sessions WHERE account_id = ?').run(accountId).changes);
  }

  async putOnce(kind: OnceKind, hash: string, value: string, expiresAt: Date): Promise<void> {
    this.#writable();
    this.#sweep(new Date());
    this.#db.prepare('INSERT OR REPLACE INTO once_tokens (kind, hash, value, expires_at) VALUES (?, ?, ?, ?)').run(kind, hash, value, expiresAt.toISOString());
  }

  async takeOnce(kind: OnceKind, hash: string, now: Date): Promise<string | undefined> {
    this.#writable();
    // DELETE ... RETURNING: the row goes in the same statement that reads it, so only one taker gets it.
    const row = this.#db.prepare('DELETE FROM once_tokens WHERE kind = ? AND hash = ? RETURNING value, expires_at').get(kind, hash) as { value: string; expires_at: string } | undefined;
    return row && row.expires_at > now.toISOString() ? row.value : undefined;
  }

  async audit(event: AuditEvent): Promise<void> {
    this.#transaction(() => {
      this.#db.prepare('INSERT INTO audit (account_id, record) VALUES (?, ?)').run(event.accountId, JSON.stringify(event));
      // Bounded like Redis's list: the account's events older than its newest AUDIT_KEPT go.
      this.#db.prepare('DELETE FROM audit WHERE account_id = ? AND seq <= (SELECT seq FROM audit WHERE account_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)').run(event.accountId, event.accountId, AUDIT_KEPT);
    });
  }

  async auditLog(accountId: string, limit: number): Promise<AuditEvent[]> {
    if (noAuditWanted(limit)) return [];
    const rows = this.#db.prepare('SELECT record FROM audit WHERE account_id = ? ORDER BY seq DESC LIMIT ?').all(accountId, limit) as { record: string }[];
    return rows.map((row) => this.#read.audit(row.record));
  }

  async addUsage(counts: readonly UsageCount[], lastUsed: ReadonlyMap<string, string>): Promise<void> {
    const add = this.#db.prepare(
      `INSERT INTO usage (account_id, key_id, day, metric, label, count) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, day, key_id, metric, label) DO UPDATE SET count = count + excluded.count`,
    );
    const used = this.#db.prepare('INSERT INTO key_last_used (key_id, at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET at = max(at, excluded.at)');
    this.#transaction(() => {
      for (const count of counts) add.run(count.accountId, count.keyId, count.day, count.metric, count.label, count.count);
      for (const [keyId, at] of lastUsed) used.run(keyId, at);
    });
  }

  async usage(accountId: string, fromDay: string, toDay: string): Promise<UsageCount[]> {
    const rows = this.#db
      .prepare('SELECT account_id AS accountId, key_id AS keyId, day, metric, label, count FROM usage WHERE account_id = ? AND day BETWEEN ? AND ? ORDER BY day')
      .all(accountId, fromDay, toDay) as unknown as UsageCount[];
    return rows.map((row) => ({ ...row }));
  }

  async takeQuota(accountId: string, month: string, kind: QuotaKind, amount: number, limit: number, floor: number): Promise<number> {
    return this.#transaction(() => {
      const row = this.#db.prepare('SELECT taken FROM quota_taken WHERE account_id = ? AND month = ? AND kind = ?').get(accountId, month, kind) as { taken: number } | undefined;
      const taken = Math.max(Number(row?.taken ?? 0), floor);
      const granted = Math.max(0, Math.min(amount, limit - taken));
      if (granted > 0 || row === undefined || taken !== Number(row.taken)) {
        this.#db
          .prepare('INSERT INTO quota_taken (account_id, month, kind, taken) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month, kind) DO UPDATE SET taken = excluded.taken')
          .run(accountId, month, kind, taken + granted);
      }
      return granted;
    });
  }

  async giveBackQuota(accountId: string, month: string, kind: QuotaKind, amount: number): Promise<void> {
    this.#db.prepare('UPDATE quota_taken SET taken = MAX(0, taken - ?) WHERE account_id = ? AND month = ? AND kind = ?').run(amount, accountId, month, kind);
  }

  async monthTotals(accountId: string, month: string): Promise<{ requests: number; cards: number }> {
    const rows = this.#db
      .prepare(`SELECT metric, SUM(count) AS total FROM usage WHERE account_id = ? AND day BETWEEN ? AND ? AND metric IN ('requests', 'cards') GROUP BY metric`)
      .all(accountId, `${month}-01`, `${month}-31`) as { metric: string; total: number }[];
    const total = (metric: string) => Number(rows.find((row) => row.metric === metric)?.total ?? 0);
    return { requests: total('requests'), cards: total('cards') };
  }

  async keysLastUsed(keyIds: readonly string[]): Promise<Record<string, string>> {
    if (keyIds.length === 0) return {};
    const rows = this.#db.prepare(`SELECT key_id, at FROM key_last_used WHERE key_id IN (${keyIds.map(() => '?').join(',')})`).all(...keyIds) as { key_id: string; at: string }[];
    return Object.fromEntries(rows.map((row) => [row.key_id, row.at]));
  }

  async createTemplate(template: CardTemplate, maxPerAccount: number): Promise<boolean> {
    return this.#transaction(() => {
      const { count } = this.#db.prepare('SELECT COUNT(*) AS count FROM card_templates WHERE account_id = ?').get(template.accountId) as { count: number };
      if (Number(count) >= maxPerAccount || this.#db.prepare('SELECT 1 FROM card_templates WHERE id = ?').get(template.id)) return false;
      // seq keeps creation order even for templates made in the same millisecond.
      this.#db
        .prepare('INSERT INTO card_templates (id, account_id, seq, record) VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM card_templates), ?)')
        .run(template.id, template.accountId, JSON.stringify(template));
      return true;
    });
  }

  async getTemplate(accountId: string, id: string): Promise<CardTemplate | undefined> {
    return this.#templateOf(accountId, id);
  }

  async listTemplates(accountId: string): Promise<CardTemplate[]> {
    const rows = this.#db.prepare('SELECT record FROM card_templates WHERE account_id = ? ORDER BY seq').all(accountId) as { record: string }[];
    return rows.map((row) => this.#read.template(row.record));
  }

  async updateTemplate(accountId: string, id: string, change: Pick<CardTemplate, 'name' | 'kind' | 'fields' | 'updatedAt'>): Promise<CardTemplate | undefined> {
    return this.#transaction(() => {
      const current = this.#templateOf(accountId, id);
      if (!current) return undefined;
      const updated: CardTemplate = { ...current, ...change };
      this.#db.prepare('UPDATE card_templates SET record = ? WHERE id = ?').run(JSON.stringify(updated), id);
      return updated;
    });
  }

  async deleteTemplate(accountId: string, id: string): Promise<boolean> {
    this.#writable();
    return Number(this.#db.prepare('DELETE FROM card_templates WHERE id = ? AND account_id = ?').run(id, accountId).changes) > 0;
  }

  async cardLinkRender(jobId: string, now: Date): Promise<CardLinkRender | undefined> {
    const row = this.#db.prepare('SELECT record FROM card_link_renders WHERE job_id = ? AND expires_at > ?').get(jobId, now.toISOString()) as { record: string } | undefined;
    return row && this.#read.cardLink(row.record);
  }

  async putCardLinkRender(jobId: string, render: CardLinkRender, expiresAt: Date): Promise<void> {
    this.#writable();
    this.#sweep(new Date());
    this.#db.prepare('INSERT OR REPLACE INTO card_link_renders (job_id, expires_at, record) VALUES (?, ?, ?)').run(jobId, expiresAt.toISOString(), JSON.stringify(render));
  }

  unavailable(): string | undefined {
    return this.#watch.problem();
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  /** Before every write: a change to a file that is no longer the database would be reported done and lost. */
  #writable(): void {
    const problem = this.#watch.problem();
    if (problem !== undefined) throw new StoreUnavailableError(problem);
  }

  #transaction<T>(work: () => T): T {
    this.#writable();
    return writeTransaction(this.#db, work);
  }

  /** Expired sessions, one-time tokens and card link renders go, at most every SWEEP_INTERVAL_MS, on a write. */
  #sweep(now: Date): void {
    if (now.getTime() - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now.getTime();
    this.#db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now.toISOString());
    this.#db.prepare('DELETE FROM once_tokens WHERE expires_at <= ?').run(now.toISOString());
    this.#db.prepare('DELETE FROM card_link_renders WHERE expires_at <= ?').run(now.toISOString());
  }

  #templateOf(accountId: string, id: string): CardTemplate | undefined {
    const row = this.#db.prepare('SELECT record FROM card_templates WHERE id = ? AND account_id = ?').get(id, accountId) as { record: string } | undefined;
    return row && this.#read.template(row.record);
  }

  #changeKey(id: string, change: (record: ApiKeyRecord) => ApiKeyRecord | undefined): ApiKeyRecord | undefined {
    return this.#transaction(() => {
      const row = this.#keyById.get(id) as { record: string } | undefined;
      if (!row) return undefined;
      const record = this.#read.key(row.record);
      const changed = change(record);
      if (changed === undefined || changed === record) return changed;
      this.#putKey.run(id, JSON.stringify(changed));
      this.#bumpKeysVersion.run();
      return changed;
    });
  }
}

/** Opens (creating and migrating) the embedded store at `options.path`, importing `keysFile` once. */
export function openSqliteAccountStore(options: { path: string; keysFile?: string | undefined }): AccountStore {
  return new SqliteAccountStore(options);
}
