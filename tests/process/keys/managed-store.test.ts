import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@utility-api/infra';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { KeyStoreDataError } from '../../../services/gateway/src/auth/api-keys.ts';
import { createApiKey, type ApiKeyRecords } from '../../../services/gateway/src/auth/key-records.ts';
import { ApiKeyVerifier } from '../../../services/gateway/src/auth/key-verifier.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { timeUntil } from '../../support/keys/key-processes.ts';

/** The verifier over the embedded store (a SQLite database per test), and what a gateway does with a keys file it cannot import. */
const folders: string[] = [];
function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'managed-store-'));
  folders.push(folder);
  return folder;
}
const newStore = () => openSqliteAccountStore({ path: join(newFolder(), 'utility-api.sqlite') });
test.after.always(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Managed keys only, as the gateway's verifier holds them. */
function openManaged(records: ApiKeyRecords, logger: Logger, pollIntervalMs?: number): Promise<ApiKeyVerifier> {
  return ApiKeyVerifier.open({ bootstrapKeys: [], records, logger, ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }) });
}

function recordingLogger() {
  const warnings: string[] = [];
  const logger = {
    warn: (_fields: unknown, message?: string) => void warnings.push(message ?? ''),
    info: () => {},
    debug: () => {},
    error: () => {},
  } as unknown as Logger;
  return { logger, warnings };
}

test('verifies by id then hash: a tampered secret or a revoked key is refused', async (t) => {
  const records = newStore();
  const { key, record } = await createApiKey(records, { name: 'bot', now: new Date() });
  const scoped = await createApiKey(records, { name: 'scoped', now: new Date(), accountId: 'acct_someone', scopes: ['cards'] });
  const store = await openManaged(records, recordingLogger().logger, 60_000);
  try {
    t.deepEqual(await store.verify(key), { id: record.prefix, name: 'bot', accountId: OWNER_ACCOUNT_ID });
    t.deepEqual(await store.verify(scoped.key), { id: scoped.record.prefix, name: 'scoped', accountId: 'acct_someone', scopes: ['cards'] });
    const tampered = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    t.is(await store.verify(tampered), undefined);
    t.is(await store.verify('uk_live_00000000_' + 'a'.repeat(32)), undefined);
    t.is(await store.verify('not-a-managed-key-at-all'), undefined);
    await records.revoke(record.id, new Date());
    // The poll is a minute here: the miss path does not apply to a known id, so force the refresh.
    await store.refresh();
    t.is(await store.verify(key), undefined);
    t.is(store.activeCount, 1);
  } finally {
    store.close();
  }
});

test('per-key limits travel with the identity', async (t) => {
  const records = newStore();
  const { key } = await createApiKey(records, { name: 'bot', now: new Date(), limits: { profileImage: { points: 5, durationSeconds: 10 } } });
  const store = await openManaged(records, recordingLogger().logger);
  try {
    t.deepEqual((await store.verify(key))?.limits, { profileImage: { points: 5, durationSeconds: 10 } });
  } finally {
    store.close();
  }
});

test('a store that stops answering keeps the last keys and warns once', async (t) => {
  const sqlite = newStore();
  const { key } = await createApiKey(sqlite, { name: 'bot', now: new Date() });
  // The records as the verifier reads them, counting its reads: each poll is at least one.
  let reads = 0;
  const records = new Proxy(sqlite, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => ((reads += 1), value.apply(target, args)) : value;
    },
  });
  const { logger, warnings } = recordingLogger();
  const store = await openManaged(records, logger, 20);
  try {
    // A closed database fails every read, as an unreachable Redis does.
    await sqlite.close();
    await timeUntil(async () => warnings.length > 0, 2000);
    t.truthy(await store.verify(key));
    // Polls keep failing every 20 ms; the warning is not repeated: five more failed reads, one warning.
    await timeUntil(async () => (await store.verify('uk_live_zzzzzzzz_' + 'a'.repeat(32))) === undefined && warnings.length === 1, 2000);
    const readsBefore = reads;
    await timeUntil(async () => reads >= readsBefore + 5, 10_000);
    t.is(warnings.length, 1, 'reported once, not on every poll');
  } finally {
    store.close();
  }
});

test('an unreadable keys file to import stops the gateway from starting, naming the file', async (t) => {
  const folder = newFolder();
  for (const [name, prepare] of [
    ['bad.json', (file: string) => writeFileSync(file, JSON.stringify({ format: 'utility-api/api-keys@1', keys: [{ id: 'x' }] }))],
    ['folder.json', (file: string) => mkdirSync(file)],
  ] as const) {
    const file = join(folder, name);
    prepare(file);
    const gateway = await startGatewayProcess({ env: { KEYS_FILE: file }, waitUntilListening: false });
    const { code } = await gateway.process.exited;
    await gateway.stop();
    t.is(code, 1, name);
    t.regex(gateway.process.output(), /gateway failed to start/);
    t.regex(gateway.process.output(), new RegExp(`unreadable key data in ${file.replaceAll('/', '\\/').replaceAll('.', '\\.')}`));
  }
  t.throws(() => openSqliteAccountStore({ path: join(folder, 'direct.sqlite'), keysFile: join(folder, 'bad.json') }), { instanceOf: KeyStoreDataError });
});

test('a loaded key is decided without waiting (no promise); a key created after the load is found through the store', async (t) => {
  const records = newStore();
  const { key, record } = await createApiKey(records, { name: 'bot', now: new Date() });
  // A poll of a minute: only the miss path can find the key created below.
  const store = await openManaged(records, recordingLogger().logger, 60_000);
  try {
    const known = store.verify(key);
    t.false(known instanceof Promise, 'a loaded key costs the request no await');
    t.deepEqual(known, { id: record.prefix, name: 'bot', accountId: OWNER_ACCOUNT_ID });
    const tampered = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    const wrongSecret = store.verify(tampered);
    t.true(wrongSecret instanceof Promise, 'a wrong secret for a known id asks the store once (the key may have just been rolled)');
    t.is(await wrongSecret, undefined);
    t.is(store.verify('not-a-managed-key-at-all'), undefined, 'a key of no managed shape is refused at once');

    const created = await createApiKey(records, { name: 'new', now: new Date() });
    const fresh = store.verify(created.key);
    t.true(fresh instanceof Promise);
    t.deepEqual(await fresh, { id: created.record.prefix, name: 'new', accountId: OWNER_ACCOUNT_ID });
    t.false(store.verify(created.key) instanceof Promise, 'once loaded, it is decided from memory too');
  } finally {
    store.close();
  }
});
