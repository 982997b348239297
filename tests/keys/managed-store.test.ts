import test from 'ava';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@utility-api/infra';
import { KeyStoreDataError } from '../../services/gateway/src/auth/api-keys.ts';
import { openSqliteAccountStore } from '../../services/gateway/src/accounts/sqlite-account-store.ts';
import { createApiKey, type ApiKeyRecords } from '../../services/gateway/src/auth/key-records.ts';

// TODO(accounts): rewritten for the SQLite store by the store work; the JSON file is only imported now.
const fileApiKeyRecords = (file: string) => openSqliteAccountStore({ path: file.replace(/\.json$/, '.sqlite'), keysFile: file });
import { ApiKeyVerifier } from '../../services/gateway/src/auth/key-verifier.ts';
import { startNodeProcess } from '../helpers/processes.ts';
import { GATEWAY_ENTRY, timeUntil } from './key-processes.ts';

const folders: string[] = [];
function keysFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'managed-store-'));
  folders.push(folder);
  return join(folder, 'api-keys.json');
}
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
  const records = fileApiKeyRecords(keysFile());
  const { key, record } = await createApiKey(records, { name: 'bot', now: new Date() });
  const store = await openManaged(records, recordingLogger().logger, 60_000);
  try {
    t.deepEqual(await store.verify(key), { id: record.prefix, name: 'bot' });
    const tampered = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    t.is(await store.verify(tampered), undefined);
    t.is(await store.verify('uk_live_00000000_' + 'a'.repeat(32)), undefined);
    t.is(await store.verify('not-a-managed-key-at-all'), undefined);
    await records.revoke(record.id, new Date());
    // The poll is a minute here: the miss path does not apply to a known id, so force the refresh.
    await store.refresh();
    t.is(await store.verify(key), undefined);
    t.is(store.activeCount, 0);
  } finally {
    store.close();
  }
});

test('per-key limits travel with the identity', async (t) => {
  const records = fileApiKeyRecords(keysFile());
  const { key } = await createApiKey(records, { name: 'bot', now: new Date(), limits: { profileImage: { points: 5, durationSeconds: 10 } } });
  const store = await openManaged(records, recordingLogger().logger);
  try {
    t.deepEqual((await store.verify(key))?.limits, { profileImage: { points: 5, durationSeconds: 10 } });
  } finally {
    store.close();
  }
});

test('a key file that turns unreadable keeps the last keys and warns once; a deleted file drops them', async (t) => {
  const file = keysFile();
  const records = fileApiKeyRecords(file);
  const { key } = await createApiKey(records, { name: 'bot', now: new Date() });
  const { logger, warnings } = recordingLogger();
  const store = await openManaged(records, logger, 20);
  try {
    writeFileSync(file, '{ not json');
    await timeUntil(async () => warnings.length > 0, 2000);
    t.truthy(await store.verify(key));
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(warnings.length, 1, 'reported once, not on every poll');
    unlinkSync(file);
    // A deleted file means no managed keys.
    await timeUntil(async () => (await store.verify(key)) === undefined, 2000);
    t.pass();
  } finally {
    store.close();
  }
});

test('an unreadable key file at boot stops the store from opening, and the gateway from starting', async (t) => {
  const file = keysFile();
  writeFileSync(file, JSON.stringify({ format: 'utility-api/api-keys@1', keys: [{ id: 'x' }] }));
  await t.throwsAsync(openManaged(fileApiKeyRecords(file), recordingLogger().logger), { instanceOf: KeyStoreDataError });
  const gateway = startNodeProcess(GATEWAY_ENTRY, { PORT: '0', KEYS_FILE: file, API_KEYS: 'bootstrap-key-0123456789abcdef', MEDIA_DIR: join(file, '..', 'media'), RENDER_WORKERS: '1' });
  const { code } = await gateway.exited();
  t.is(code, 1);
  t.regex(gateway.output(), /gateway failed to start/);
  t.regex(gateway.output(), /unreadable key data/);
});
