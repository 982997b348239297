import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { apiKeyRecordSchema, KeyStoreDataError, parseStoredKeys, type ApiKeyRecord } from '../auth/api-keys.ts';
import { accountSchema, auditEventSchema, cardLinkRenderSchema, cardTemplateSchema, sessionSchema, type Account, type AuditEvent, type CardTemplate, type Session, type UsageCount } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { AUDIT_KEPT, type AccountStore, type OnceKind } from './account-store.ts';
import { StoreFileWatch, StoreUnavailableError } from './store-file-watch.ts';

/**
 * The schema, applied in order; `PRAGMA user_version` says how many ran. Records are JSON checked
 * by the same zod schemas as Redis's, with the columns a query needs beside them.
 */
const MIGRATIONS = [
  `CREATE TABLE api_keys (id TEXT PRIMARY KEY, record TEXT NOT NULL) STRICT;
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
   INSERT INTO meta VALUES ('keys_version', '0');
   CREATE TABLE accounts (id TEXT PRIMARY KEY, discord_user_id TEXT UNIQUE, record TEXT NOT NULL) STRICT;
   CREATE TABLE sessions (id_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, expires_at TEXT NOT NULL, record TEXT NOT NULL) STRICT;
   CREATE INDEX sessions_by_account ON sessions (account_id);
   CREATE TABLE once_tokens (kind TEXT NOT NULL, hash TEXT NOT NULL, value TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (kind, hash)) STRICT;
   CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL, record TEXT NOT NULL) STRICT;
   CREATE INDEX audit_by_account ON audit (account_id, seq);
   CREATE TABLE usage (account_id TEXT NOT NULL, key_id TEXT NOT NULL, day TEXT NOT NULL, metric TEXT NOT NULL, label TEXT NOT NULL, count INTEGER NOT NULL,
     PRIMARY KEY (account_id, day, key_id, metric, label)) STRICT, WITHOUT ROWID;
   CREATE TABLE key_last_used (key_id TEXT PRIMARY KEY, at TEXT NOT NULL) STRICT;`,
  `CREATE TABLE card_templates (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL) STRICT;
   CREATE INDEX card_templates_by_account ON card_templates (account_id, seq);
   CREATE TABLE card_link_renders (job_id TEXT PRIMARY KEY, expires_at TEXT NOT NULL, record TEXT NOT NULL) STRICT;
   CREATE INDEX card_link_renders_by_expiry ON card_link_renders (expires_at);`,
  // Units of each monthly quota taken at admission (cards) or leased (requests), across gateways.
  `CREATE TABLE quota_taken (account_id TEXT NOT NULL, month TEXT NOT NULL, kind TEXT NOT NULL, taken INTEGER NOT NULL,
     PRIMARY KEY (account_id, month, kind)) STRICT, WITHOUT ROWID;`,
];

/** A hand-made keys file (before the database) is imported once; this marks it done. */
const KEYS_FILE_IMPORTED = 'keys_file_imported';
const keysFileSchema = z.object({ keys: z.array(apiKeyRecordSchema) });
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
 * flushes, never per request.
 */
export function openSqliteAccountStore(options: { path: string; keysFile?: string | undefined }): AccountStore {
  const path = resolve(options.path);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's
  // mode, and the database holds key and session hashes and every account.
  closeSync(openSync(path, 'a', 0o600));
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  // FULL: every commit is fsynced, so a change reported done survives a power cut too. Writes are
  // account actions and usage flushes every few seconds, never one per request: the fsync is cheap.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
  migrate(db);
  if (options.keysFile !== undefined) importKeysFileOnce(db, resolve(options.keysFile));
  const watch = new StoreFileWatch(path);
  /** Before every write: a change to a file that is no longer the database would be reported done and lost. */
  const writable = () => {
    const problem = watch.problem();
    if (problem !== undefined) throw new StoreUnavailableError(problem);
  };

  const transaction = <T>(work: () => T): T => {
    writable();
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  const bumpKeysVersion = db.prepare(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE name = 'keys_version'`);
  const keysVersion = db.prepare(`SELECT value FROM meta WHERE name = 'keys_version'`);
  const keyById = db.prepare('SELECT record FROM api_keys WHERE id = ?');
  // A record without accountId is the local owner's (keys made before accounts).
  const activeKeysOf = db.prepare(`SELECT COUNT(*) AS count FROM api_keys WHERE COALESCE(json_extract(record, '$.accountId'), '${OWNER_ACCOUNT_ID}') = ? AND json_extract(record, '$.revokedAt') IS NULL`);
  const putKey = db.prepare('INSERT OR REPLACE INTO api_keys (id, record) VALUES (?, ?)');
  const parseKey = (json: string) => parseStoredKeys(apiKeyRecordSchema, json, path);
  const parseAccount = (json: string) => parseStoredKeys(accountSchema, json, path);
  const parseSession = (json: string) => parseStoredKeys(sessionSchema, json, path);
  let lastSweep = 0;
  const sweep = (now: Date) => {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now.toISOString());
    db.prepare('DELETE FROM once_tokens WHERE expires_at <= ?').run(now.toISOString());
    db.prepare('DELETE FROM card_link_renders WHERE expires_at <= ?').run(now.toISOString());
  };
  const parseTemplate = (json: string) => parseStoredKeys(cardTemplateSchema, json, path);
  const templateOf = (accountId: string, id: string) => {
    const row = db.prepare('SELECT record FROM card_templates WHERE id = ? AND account_id = ?').get(id, accountId) as { record: string } | undefined;
    return row && parseTemplate(row.record);
  };

  const changeKey = (id: string, change: (record: ApiKeyRecord) => ApiKeyRecord | undefined): ApiKeyRecord | undefined =>
    transaction(() => {
      const row = keyById.get(id) as { record: string } | undefined;
      if (!row) return undefined;
      const record = parseKey(row.record);
      const changed = change(record);
      if (changed === undefined || changed === record) return changed;
      putKey.run(id, JSON.stringify(changed));
      bumpKeysVersion.run();
      return changed;
    });

  return {
    kind: 'sqlite',
    location: path,
    version: async () => (keysVersion.get() as { value: string }).value,
    async snapshot() {
      // One read transaction: the version belongs to exactly these records.
      db.exec('BEGIN');
      try {
        const version = (keysVersion.get() as { value: string }).value;
        const records = (db.prepare('SELECT record FROM api_keys').all() as { record: string }[]).map((row) => parseKey(row.record));
        return { version, records };
      } finally {
        db.exec('COMMIT');
      }
    },
    async insert(record, maxActive) {
      // BEGIN IMMEDIATE takes the write lock before the count: a second writer (another handle,
      // the CLI, another process) waits for this commit and then counts this key too.
      return transaction(() => {
        if (keyById.get(record.id)) return 'taken';
        if (maxActive !== undefined && Number((activeKeysOf.get(record.accountId ?? OWNER_ACCOUNT_ID) as { count: number }).count) >= maxActive) return 'full';
        putKey.run(record.id, JSON.stringify(record));
        bumpKeysVersion.run();
        return 'inserted';
      });
    },
    async revoke(id, at) {
      return changeKey(id, (record) => (record.revokedAt !== null ? record : { ...record, revokedAt: at.toISOString() }));
    },
    async roll(id, { hash, at, graceUntil, accountId }) {
      return changeKey(id, (record) => {
        if (record.revokedAt !== null || (accountId !== undefined && (record.accountId ?? OWNER_ACCOUNT_ID) !== accountId)) return undefined;
        return { ...record, hash, previousHash: record.hash, previousExpiresAt: graceUntil.toISOString(), rolledAt: at.toISOString() };
      });
    },

    async getAccount(id) {
      const row = db.prepare('SELECT record FROM accounts WHERE id = ?').get(id) as { record: string } | undefined;
      return row && parseAccount(row.record);
    },
    async accountByDiscordId(discordUserId) {
      const row = db.prepare('SELECT record FROM accounts WHERE discord_user_id = ?').get(discordUserId) as { record: string } | undefined;
      return row && parseAccount(row.record);
    },
    async createAccount(account) {
      return transaction(() => {
        const existing = db.prepare('SELECT record FROM accounts WHERE id = ? OR (discord_user_id IS NOT NULL AND discord_user_id = ?)').get(account.id, account.discordUserId) as { record: string } | undefined;
        if (existing) return parseAccount(existing.record);
        db.prepare('INSERT INTO accounts (id, discord_user_id, record) VALUES (?, ?, ?)').run(account.id, account.discordUserId, JSON.stringify(account));
        return account;
      });
    },
    async listAccounts() {
      return (db.prepare('SELECT record FROM accounts ORDER BY id').all() as { record: string }[]).map((row) => parseAccount(row.record));
    },
    async setPlan(id, plan) {
      return transaction(() => {
        const row = db.prepare('SELECT record FROM accounts WHERE id = ?').get(id) as { record: string } | undefined;
        if (!row) return undefined;
        const account: Account = { ...parseAccount(row.record), plan };
        db.prepare('UPDATE accounts SET record = ? WHERE id = ?').run(JSON.stringify(account), id);
        return account;
      });
    },

    async createSession(session, maxPerAccount) {
      writable();
      sweep(new Date());
      transaction(() => {
        db.prepare('INSERT INTO sessions (id_hash, account_id, expires_at, record) VALUES (?, ?, ?, ?)').run(session.idHash, session.accountId, instant(session.expiresAt), JSON.stringify(session));
        // The account keeps its newest (latest absolute end) sessions; the oldest end in the same step.
        db.prepare('DELETE FROM sessions WHERE account_id = ? AND id_hash NOT IN (SELECT id_hash FROM sessions WHERE account_id = ? ORDER BY expires_at DESC, id_hash DESC LIMIT ?)').run(session.accountId, session.accountId, maxPerAccount);
      });
    },
    async session(idHash) {
      // Past its absolute end a session is gone, swept or not (Redis expires it on its own).
      const row = db.prepare('SELECT record FROM sessions WHERE id_hash = ? AND expires_at > ?').get(idHash, new Date().toISOString()) as { record: string } | undefined;
      return row && parseSession(row.record);
    },
    async touchSession(idHash, lastSeenAt) {
      transaction(() => {
        const row = db.prepare('SELECT record FROM sessions WHERE id_hash = ?').get(idHash) as { record: string } | undefined;
        if (!row) return;
        const session: Session = { ...parseSession(row.record), lastSeenAt: lastSeenAt.toISOString() };
        db.prepare('UPDATE sessions SET record = ? WHERE id_hash = ?').run(JSON.stringify(session), idHash);
      });
    },
    async deleteSession(idHash) {
      writable();
      db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
    },
    async deleteSessions(accountId) {
      writable();
      return Number(db.prepare('DELETE FROM sessions WHERE account_id = ?').run(accountId).changes);
    },

    async putOnce(kind: OnceKind, hash, value, expiresAt) {
      writable();
      sweep(new Date());
      db.prepare('INSERT OR REPLACE INTO once_tokens (kind, hash, value, expires_at) VALUES (?, ?, ?, ?)').run(kind, hash, value, expiresAt.toISOString());
    },
    async takeOnce(kind: OnceKind, hash, now) {
      writable();
      // DELETE ... RETURNING: the row goes in the same statement that reads it, so only one taker gets it.
      const row = db.prepare('DELETE FROM once_tokens WHERE kind = ? AND hash = ? RETURNING value, expires_at').get(kind, hash) as { value: string; expires_at: string } | undefined;
      return row && row.expires_at > now.toISOString() ? row.value : undefined;
    },

    async audit(event) {
      transaction(() => {
        db.prepare('INSERT INTO audit (account_id, record) VALUES (?, ?)').run(event.accountId, JSON.stringify(event));
        // Bounded like Redis's list: the account's events older than its newest AUDIT_KEPT go.
        db.prepare('DELETE FROM audit WHERE account_id = ? AND seq <= (SELECT seq FROM audit WHERE account_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)').run(event.accountId, event.accountId, AUDIT_KEPT);
      });
    },
    async auditLog(accountId, limit) {
      if (!(limit > 0)) return [];
      const rows = db.prepare('SELECT record FROM audit WHERE account_id = ? ORDER BY seq DESC LIMIT ?').all(accountId, limit) as { record: string }[];
      return rows.map((row): AuditEvent => parseStoredKeys(auditEventSchema, row.record, path));
    },

    async addUsage(counts, lastUsed) {
      const add = db.prepare(
        `INSERT INTO usage (account_id, key_id, day, metric, label, count) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, day, key_id, metric, label) DO UPDATE SET count = count + excluded.count`,
      );
      const used = db.prepare('INSERT INTO key_last_used (key_id, at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET at = max(at, excluded.at)');
      transaction(() => {
        for (const count of counts) add.run(count.accountId, count.keyId, count.day, count.metric, count.label, count.count);
        for (const [keyId, at] of lastUsed) used.run(keyId, at);
      });
    },
    async usage(accountId, fromDay, toDay) {
      const rows = db
        .prepare('SELECT account_id AS accountId, key_id AS keyId, day, metric, label, count FROM usage WHERE account_id = ? AND day BETWEEN ? AND ? ORDER BY day')
        .all(accountId, fromDay, toDay) as unknown as UsageCount[];
      return rows.map((row) => ({ ...row }));
    },
    async takeQuota(accountId, month, kind, amount, limit, floor) {
      return transaction(() => {
        const row = db.prepare('SELECT taken FROM quota_taken WHERE account_id = ? AND month = ? AND kind = ?').get(accountId, month, kind) as { taken: number } | undefined;
        const taken = Math.max(Number(row?.taken ?? 0), floor);
        const granted = Math.max(0, Math.min(amount, limit - taken));
        if (granted > 0 || row === undefined || taken !== Number(row.taken)) {
          db.prepare('INSERT INTO quota_taken (account_id, month, kind, taken) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month, kind) DO UPDATE SET taken = excluded.taken')
            .run(accountId, month, kind, taken + granted);
        }
        return granted;
      });
    },
    async giveBackQuota(accountId, month, kind, amount) {
      db.prepare('UPDATE quota_taken SET taken = MAX(0, taken - ?) WHERE account_id = ? AND month = ? AND kind = ?').run(amount, accountId, month, kind);
    },
    async monthTotals(accountId, month) {
      const rows = db
        .prepare(`SELECT metric, SUM(count) AS total FROM usage WHERE account_id = ? AND day BETWEEN ? AND ? AND metric IN ('requests', 'cards') GROUP BY metric`)
        .all(accountId, `${month}-01`, `${month}-31`) as { metric: string; total: number }[];
      const total = (metric: string) => Number(rows.find((row) => row.metric === metric)?.total ?? 0);
      return { requests: total('requests'), cards: total('cards') };
    },
    async keysLastUsed(keyIds) {
      if (keyIds.length === 0) return {};
      const rows = db.prepare(`SELECT key_id, at FROM key_last_used WHERE key_id IN (${keyIds.map(() => '?').join(',')})`).all(...keyIds) as { key_id: string; at: string }[];
      return Object.fromEntries(rows.map((row) => [row.key_id, row.at]));
    },

    async createTemplate(template, maxPerAccount) {
      return transaction(() => {
        const { count } = db.prepare('SELECT COUNT(*) AS count FROM card_templates WHERE account_id = ?').get(template.accountId) as { count: number };
        if (Number(count) >= maxPerAccount || db.prepare('SELECT 1 FROM card_templates WHERE id = ?').get(template.id)) return false;
        // seq keeps creation order even for templates made in the same millisecond.
        db.prepare('INSERT INTO card_templates (id, account_id, seq, record) VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM card_templates), ?)').run(template.id, template.accountId, JSON.stringify(template));
        return true;
      });
    },
    async getTemplate(accountId, id) {
      return templateOf(accountId, id);
    },
    async listTemplates(accountId) {
      const rows = db.prepare('SELECT record FROM card_templates WHERE account_id = ? ORDER BY seq').all(accountId) as { record: string }[];
      return rows.map((row) => parseTemplate(row.record));
    },
    async updateTemplate(accountId, id, change) {
      return transaction(() => {
        const current = templateOf(accountId, id);
        if (!current) return undefined;
        const updated: CardTemplate = { ...current, ...change };
        db.prepare('UPDATE card_templates SET record = ? WHERE id = ?').run(JSON.stringify(updated), id);
        return updated;
      });
    },
    async deleteTemplate(accountId, id) {
      writable();
      return Number(db.prepare('DELETE FROM card_templates WHERE id = ? AND account_id = ?').run(id, accountId).changes) > 0;
    },

    async cardLinkRender(jobId, now) {
      const row = db.prepare('SELECT record FROM card_link_renders WHERE job_id = ? AND expires_at > ?').get(jobId, now.toISOString()) as { record: string } | undefined;
      return row && parseStoredKeys(cardLinkRenderSchema, row.record, path);
    },
    async putCardLinkRender(jobId, render, expiresAt) {
      writable();
      sweep(new Date());
      db.prepare('INSERT OR REPLACE INTO card_link_renders (job_id, expires_at, record) VALUES (?, ?, ?)').run(jobId, expiresAt.toISOString(), JSON.stringify(render));
    },

    unavailable: () => watch.problem(),
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

function migrate(db: DatabaseSync): void {
  const applied = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  for (let index = applied; index < MIGRATIONS.length; index += 1) {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated between the read above and this lock.
      if (Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version) > index) {
        db.exec('COMMIT');
        continue;
      }
      db.exec(MIGRATIONS[index]!);
      db.exec(`PRAGMA user_version = ${index + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * The JSON keys file of earlier versions (KEYS_FILE), read into the database the first time the
 * database opens with it present; later edits to the file are ignored (it says so in the log).
 */
function importKeysFileOnce(db: DatabaseSync, file: string): void {
  // Once imported, the file is not even read: a later edit, or a file gone unreadable, changes nothing.
  if (db.prepare('SELECT 1 FROM meta WHERE name = ?').get(KEYS_FILE_IMPORTED)) return;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    // No file: nothing to import (a fresh install). A file that is there but cannot be read (its
    // mode, a folder) must stop the boot: starting without its keys would refuse every one of them.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new KeyStoreDataError(file, error);
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    // Checked again under the write lock: a gateway and the CLI opening at once import it once.
    if (!db.prepare('SELECT 1 FROM meta WHERE name = ?').get(KEYS_FILE_IMPORTED)) {
      const { keys } = parseStoredKeys(keysFileSchema, text, file);
      const insert = db.prepare('INSERT OR IGNORE INTO api_keys (id, record) VALUES (?, ?)');
      for (const record of keys) insert.run(record.id, JSON.stringify(record));
      db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run(KEYS_FILE_IMPORTED, `${file} (${keys.length} keys) at ${new Date().toISOString()}`);
      db.exec(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE name = 'keys_version'`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
