import { readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { apiKeyRecordSchema, KeyStoreDataError, parseStoredKeys } from '../auth/api-keys.ts';

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

/** Runs the migrations the database has not had yet, each in its own write transaction. */
export function migrate(db: DatabaseSync): void {
  const applied = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  for (let index = applied; index < MIGRATIONS.length; index += 1) {
    writeTransaction(db, () => {
      // Another process may have migrated between the read above and this lock.
      if (Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version) > index) return;
      db.exec(MIGRATIONS[index]!);
      db.exec(`PRAGMA user_version = ${index + 1}`);
    });
  }
}

/**
 * The JSON keys file of earlier versions (KEYS_FILE), read into the database the first time the
 * database opens with it present; later edits to the file are ignored (it says so in the log).
 */
export function importKeysFileOnce(db: DatabaseSync, file: string): void {
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
  writeTransaction(db, () => {
    // Checked again under the write lock: a gateway and the CLI opening at once import it once.
    if (db.prepare('SELECT 1 FROM meta WHERE name = ?').get(KEYS_FILE_IMPORTED)) return;
    const { keys } = parseStoredKeys(keysFileSchema, text, file);
    const insert = db.prepare('INSERT OR IGNORE INTO api_keys (id, record) VALUES (?, ?)');
    for (const record of keys) insert.run(record.id, JSON.stringify(record));
    db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run(KEYS_FILE_IMPORTED, `${file} (${keys.length} keys) at ${new Date().toISOString()}`);
    db.exec(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE name = 'keys_version'`);
  });
}

/**
 * Runs `work` in a transaction that takes the write lock first (BEGIN IMMEDIATE: a second writer
 * waits for this commit, then sees its changes), committed when `work` returns, rolled back when
 * it throws.
 */
export function writeTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
