import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { StoreUnavailableError } from '../../../services/gateway/src/accounts/store-file-watch.ts';
import { KeyStoreDataError, type ApiKeyRecord } from '../../../services/gateway/src/auth/api-keys.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { registerAccountStoreContract } from '../../support/accounts/account-store-contract.ts';

/** The AccountStore contract on one SQLite file, each store a database handle of its own; then what only the file has. */
const folder = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
const databasePath = join(folder, 'nested', 'accounts.sqlite');

test.after.always(() => rmSync(folder, { recursive: true, force: true }));

registerAccountStoreContract(test, 'sqlite', async () => ({
  open: async () => openSqliteAccountStore({ path: databasePath }),
  close: (store) => store.close(),
  stop: async () => {},
}));

test('sqlite: the database and its WAL are owner-only (they hold every account and key hash)', async (t) => {
  const path = join(folder, 'mode', 'accounts.sqlite');
  const store = openSqliteAccountStore({ path });
  try {
    await store.audit({ at: new Date().toISOString(), accountId: 'acct_mode', type: 'account_created', actor: 'cli', detail: {} });
    t.is(statSync(path).mode & 0o777, 0o600);
    t.is(statSync(`${path}-wal`).mode & 0o777, 0o600);
    t.is(statSync(join(folder, 'mode')).mode & 0o777, 0o700);
  } finally {
    await store.close();
  }
});

const execFileAsync = promisify(execFile);

test('sqlite: two processes flushing usage at once (200 transactions each) lose no update', async (t) => {
  const path = join(folder, 'processes', 'accounts.sqlite');
  void openSqliteAccountStore({ path }).close();
  const storeModule = pathToFileURL(join(REPO_ROOT, 'services/gateway/src/accounts/sqlite-account-store.ts')).href;
  // Each process: its own handle, 200 flushes one after another (node:sqlite is synchronous, so
  // only two processes make two writers contend for the lock).
  const writer = `
    const { openSqliteAccountStore } = await import(${JSON.stringify(storeModule)});
    const store = openSqliteAccountStore({ path: ${JSON.stringify(path)} });
    for (let index = 0; index < 200; index += 1) {
      await store.addUsage([{ accountId: 'acct_busy', keyId: 'key_p', day: '2026-02-03', metric: 'requests', label: 'hexToRgb', count: 1 }], new Map([['key_p', new Date(Date.UTC(2026, 1, 3, 0, 0, 0, index)).toISOString()]]));
    }
    await store.close();`;
  await Promise.all([0, 1].map(() => execFileAsync(process.execPath, ['--input-type=module', '-e', writer], { cwd: REPO_ROOT, timeout: 60_000 })));
  const store = openSqliteAccountStore({ path });
  try {
    t.deepEqual(await store.monthTotals('acct_busy', '2026-02'), { requests: 400, cards: 0 });
    t.deepEqual(await store.keysLastUsed(['key_p']), { key_p: new Date(Date.UTC(2026, 1, 3, 0, 0, 0, 199)).toISOString() });
  } finally {
    await store.close();
  }
});

function keysFileRecord(id: string, name: string): ApiKeyRecord {
  return { id, name, prefix: `uk_live_${id}`, hash: 'ab'.repeat(32), createdAt: '2025-01-01T00:00:00.000Z', revokedAt: null };
}

test('sqlite: an old keys file is imported once; a key revoked after the import stays revoked, later edits are ignored', async (t) => {
  const base = join(folder, 'import');
  mkdirSync(base);
  const keysFile = join(base, 'api-keys.json');
  writeFileSync(keysFile, JSON.stringify({ format: 'utility-api/api-keys@1', keys: [keysFileRecord('import01', 'one'), keysFileRecord('import02', 'two')] }));
  const path = join(base, 'accounts.sqlite');
  const first = openSqliteAccountStore({ path, keysFile });
  t.deepEqual((await first.snapshot()).records.map((record) => record.id).sort(), ['import01', 'import02']);
  await first.revoke('import01', new Date('2026-01-01T00:00:00.000Z'));
  await first.close();

  // The file is still there, and gains a key: neither brings anything back nor adds.
  writeFileSync(keysFile, JSON.stringify({ format: 'utility-api/api-keys@1', keys: [keysFileRecord('import01', 'one'), keysFileRecord('import02', 'two'), keysFileRecord('import03', 'three')] }));
  const second = openSqliteAccountStore({ path, keysFile });
  try {
    const records = (await second.snapshot()).records;
    t.deepEqual(records.map((record) => record.id).sort(), ['import01', 'import02']);
    t.is(records.find((record) => record.id === 'import01')?.revokedAt, '2026-01-01T00:00:00.000Z');
  } finally {
    await second.close();
  }
  // Once imported, a file turned unreadable no longer matters either.
  writeFileSync(keysFile, '{ not json');
  void openSqliteAccountStore({ path, keysFile }).close();
  t.pass();
});

test('sqlite: an unreadable keys file to import stops the store from opening, naming the file, and changes nothing', (t) => {
  const base = join(folder, 'unreadable');
  mkdirSync(base);
  const broken = join(base, 'broken.json');
  const text = '{"format":"utility-api/api-keys@1","keys":[{"id":1}]}';
  writeFileSync(broken, text);
  const path = join(base, 'accounts.sqlite');
  const parse = t.throws(() => openSqliteAccountStore({ path, keysFile: broken }), { instanceOf: KeyStoreDataError });
  t.true(parse.message.includes(broken), parse.message);
  t.is(readFileSync(broken, 'utf8'), text);
  // A folder where the file should be: there, but not readable as a file.
  const folderInstead = join(base, 'folder.json');
  mkdirSync(folderInstead);
  const read = t.throws(() => openSqliteAccountStore({ path, keysFile: folderInstead }), { instanceOf: KeyStoreDataError });
  t.regex(read.message, /EISDIR/);
  // No file at all is a fresh install: nothing to import, and not marked imported.
  const fresh = openSqliteAccountStore({ path, keysFile: join(base, 'missing.json') });
  void fresh.close();
  writeFileSync(join(base, 'later.json'), JSON.stringify({ keys: [keysFileRecord('later001', 'later')] }));
  const later = openSqliteAccountStore({ path, keysFile: join(base, 'later.json') });
  t.teardown(() => later.close());
  return later.snapshot().then(({ records }) => t.deepEqual(records.map((record) => record.id), ['later001']));
});

/** Makes a file unwritable for this process: a mode for a user; for root, whom modes do not stop, the immutable attribute. */
function makeUnwritable(path: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(path, 0o400);
    return () => chmodSync(path, 0o600);
  }
  execFileSync('chattr', ['+i', path]);
  return () => execFileSync('chattr', ['-i', path]);
}

for (const [what, damage] of [
  ['deleted with its -wal and -shm', (path: string) => { for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`); return () => {}; }],
  ['replaced by a copy', (path: string) => { copyFileSync(path, `${path}.copy`); renameSync(`${path}.copy`, path); return () => {}; }],
  ['made unwritable', makeUnwritable],
] as const) {
  test(`sqlite: a database ${what} under an open store: unavailable() says why, every write is 503 store_unavailable and changes nothing`, async (t) => {
    const path = join(folder, `away-${what.split(' ')[0]}`, 'accounts.sqlite');
    const store = openSqliteAccountStore({ path });
    t.teardown(() => store.close());
    await store.audit({ at: new Date().toISOString(), accountId: 'acct_away', type: 'account_created', actor: 'cli', detail: {} });
    t.is(store.unavailable(), undefined);
    const repair = damage(path);
    t.teardown(repair);
    t.regex(store.unavailable() ?? '', /deleted|replaced|not writable/);
    const writes: [string, () => Promise<unknown>][] = [
      ['insert', () => store.insert(keysFileRecord('away0001', 'away'), 25)],
      ['audit', () => store.audit({ at: new Date().toISOString(), accountId: 'acct_away', type: 'signed_in', actor: 'cli', detail: {} })],
      ['addUsage', () => store.addUsage([{ accountId: 'acct_away', keyId: 'k', day: '2026-02-03', metric: 'requests', label: 'x', count: 1 }], new Map())],
      ['createTemplate', () => store.createTemplate({ id: 'tpl_away00000001', accountId: 'acct_away', name: 'x', kind: 'profile', fields: {}, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() }, 25)],
      ['putOnce', () => store.putOnce('sign-in-link', 'ab'.repeat(32), 'acct_away', new Date(Date.now() + 60_000))],
    ];
    for (const [name, write] of writes) {
      const error = await t.throwsAsync(write, { instanceOf: StoreUnavailableError }, name);
      t.is(error?.status, 503);
      t.is(error?.code, 'store_unavailable');
    }
    t.deepEqual((await store.snapshot()).records, [], 'nothing was written');
  });
}
