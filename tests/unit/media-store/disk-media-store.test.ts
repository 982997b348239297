import { createHash } from 'node:crypto';
import { ReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDiskMediaStore, StorageUnavailableError, type DiskMediaStore } from '@utility-api/media-store';
import test, { type ExecutionContext } from 'ava';
import { newKey, readAll } from '../../support/media-store/fixtures.ts';
import { noisePng } from '../../fixtures/images.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const TTL_MS = 30 * DAY_MS;

const roots: string[] = [];
const stores: DiskMediaStore[] = [];

async function freshDirectory(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'media-store-disk-'));
  roots.push(root);
  return root;
}

async function bootStore(options: { directory?: string; sweepIntervalMs?: number; now?: () => number } = {}): Promise<DiskMediaStore> {
  const directory = options.directory ?? join(await freshDirectory(), 'media');
  const store = await createDiskMediaStore({ directory, ttlMs: TTL_MS, ...options });
  stores.push(store);
  return store;
}

test.after.always(async () => {
  for (const store of stores) await store.close();
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** Moves a file's mtime (and atime) into the past. */
async function age(path: string, byMs: number): Promise<void> {
  const then = new Date(Date.now() - byMs);
  await utimes(path, then, then);
}

const strayTempName = (key: string) => `.tmp-${key}-0123456789ab`;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function waitUntil(t: ExecutionContext, condition: () => Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) t.fail(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

test('boot creates the directory, nested, and the store writes <key>.png into it', async (t) => {
  const root = await freshDirectory();
  const directory = join(root, 'a', 'b', 'media');
  const store = await bootStore({ directory });
  t.is(store.directory, directory);
  t.true((await stat(directory)).isDirectory());
  const key = newKey();
  const png = noisePng(16);
  await store.put(key, png);
  t.deepEqual(await readdir(directory), [`${key}.png`], 'only the final file: no temp file left behind');
  t.true((await readFile(join(directory, `${key}.png`))).equals(png));
});

test('the ETag is the quoted, truncated sha-256 of the bytes, also after a restart', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const png = noisePng(20);
  const expected = `"${createHash('sha256').update(png).digest('hex').slice(0, 32)}"`;
  t.is((await store.put(key, png)).etag, expected);
  await store.close();
  const restarted = await bootStore({ directory: store.directory });
  t.is((await restarted.stat(key))?.etag, expected, 'computed from the file by a process that did not write it');
});

test('a put given the bytes\' SHA-256 (the render engine has it from the media key) tags them as hashing would', async (t) => {
  const store = await bootStore();
  const png = noisePng(21);
  const digest = createHash('sha256').update(png).digest();
  const expected = `"${digest.toString('hex').slice(0, 32)}"`;
  const key = newKey();
  t.is((await store.put(key, png, 'png', digest)).etag, expected);
  t.is((await store.stat(key))?.etag, expected, 'the tag the store serves for the file it wrote');
  const other = newKey();
  t.is((await store.put(other, png)).etag, expected, 'the same tag hashed by the store itself');
});

test('a file replaced behind the store gets a new ETag (no stale cache)', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const first = await store.put(key, noisePng(20));
  const replacement = noisePng(20);
  const path = join(store.directory, `${key}.png`);
  await writeFile(path, replacement);
  await age(path, 5000);
  const stat = await store.stat(key);
  t.not(stat?.etag, first.etag);
  t.is(stat?.etag, `"${createHash('sha256').update(replacement).digest('hex').slice(0, 32)}"`);
});

test('a file just written is read back from memory, and one replaced behind the store from disk', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const written = noisePng(20);
  await store.put(key, written);
  const path = join(store.directory, `${key}.png`);
  const remembered = await store.open(key);
  t.truthy(remembered);
  // Not a file stream: the bytes did not come from the disk.
  t.false(remembered!.body instanceof ReadStream);
  t.true((await readAll(remembered!.body)).equals(written));
  // Replaced behind the store (a new mtime): the disk's bytes, not the remembered ones.
  const replacement = noisePng(20);
  await writeFile(path, replacement);
  await age(path, 5000);
  const opened = await store.open(key);
  t.true(opened!.body instanceof ReadStream);
  t.true((await readAll(opened!.body)).equals(replacement));
});

test('concurrent puts leave only complete files and no temp files', async (t) => {
  const store = await bootStore();
  const shared = newKey();
  const images = Array.from({ length: 12 }, () => noisePng(64));
  const keys = images.map(() => newKey());
  await Promise.all([
    ...images.map((png, index) => store.put(keys[index]!, png)),
    ...images.map((png) => store.put(shared, png)),
  ]);
  const names = (await readdir(store.directory)).sort();
  t.deepEqual(names, [...keys, shared].map((key) => `${key}.png`).sort());
  for (const [index, key] of keys.entries()) t.true((await readFile(join(store.directory, `${key}.png`))).equals(images[index]!));
  const winner = await readFile(join(store.directory, `${shared}.png`));
  t.true(images.some((png) => png.equals(winner)), 'the shared key holds one complete image, not a mix');
});

test('a reader never sees a half-written file while the same key is overwritten', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const versions = [noisePng(500), noisePng(300)];
  await store.put(key, versions[0]!);
  let writing = true;
  let reads = 0;
  const writer = (async () => {
    for (let round = 0; round < 30; round += 1) await store.put(key, versions[round % 2]!);
    writing = false;
  })();
  const path = join(store.directory, `${key}.png`);
  while (writing) {
    const seen = await readFile(path);
    reads += 1;
    if (!versions.some((version) => version.equals(seen))) t.fail(`read ${seen.length} bytes that match no complete version`);
  }
  await writer;
  t.true(reads > 0);
  t.log(`${reads} whole-file reads during 30 overwrites`);
});

test('the sweeper deletes images older than the TTL, keeps fresh ones and foreign files', async (t) => {
  const store = await bootStore();
  const [expired, fresh, almost] = [newKey(), newKey(), newKey()];
  for (const key of [expired, fresh, almost]) await store.put(key, noisePng(8));
  await age(join(store.directory, `${expired}.png`), TTL_MS + 60_000);
  await age(join(store.directory, `${almost}.png`), TTL_MS - HOUR_MS);
  const foreign = join(store.directory, 'notes.txt');
  await writeFile(foreign, 'not ours');
  await age(foreign, 10 * TTL_MS);

  const report = await store.sweep();
  t.deepEqual(report, { expired: 1, strayTempFiles: 0, failed: 0 });
  t.is(await store.stat(expired), undefined);
  t.truthy(await store.stat(fresh));
  t.truthy(await store.stat(almost));
  t.true(await exists(foreign), 'a file the store did not write is never deleted');
});

test('the sweeper expires every format the store writes, and no other extension', async (t) => {
  const store = await bootStore();
  const key = newKey();
  for (const format of ['png', 'webp', 'avif', 'gif'] as const) {
    await store.put(key, noisePng(8), format);
    await age(join(store.directory, `${key}.${format}`), TTL_MS + 60_000);
  }
  const jpeg = join(store.directory, `${key}.jpg`);
  await writeFile(jpeg, 'not ours');
  await age(jpeg, 10 * TTL_MS);
  t.deepEqual(await store.sweep(), { expired: 4, strayTempFiles: 0, failed: 0 });
  for (const format of ['png', 'webp', 'avif', 'gif'] as const) t.is(await store.stat(key, format), undefined, format);
  t.true(await exists(jpeg));
});

test('the sweeper judges age with the injected clock', async (t) => {
  let now = Date.now();
  const store = await bootStore({ now: () => now });
  const key = newKey();
  await store.put(key, noisePng(8));
  t.deepEqual(await store.sweep(), { expired: 0, strayTempFiles: 0, failed: 0 });
  now += TTL_MS + 60_000;
  t.deepEqual(await store.sweep(), { expired: 1, strayTempFiles: 0, failed: 0 });
  t.is(await store.stat(key), undefined);
});

test('a temp file left by a crash is invisible to readers and swept after an hour', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const crashed = join(store.directory, strayTempName(key));
  const inProgress = join(store.directory, strayTempName(newKey()));
  await writeFile(crashed, noisePng(64).subarray(0, 100));
  await writeFile(inProgress, noisePng(64).subarray(0, 100));
  await age(crashed, HOUR_MS + 60_000);

  t.is(await store.stat(key), undefined, 'half-written bytes never appear as the object');
  t.is(await store.open(key), undefined);
  const report = await store.sweep();
  t.is(report.strayTempFiles, 1);
  t.false(await exists(crashed));
  t.true(await exists(inProgress), 'a young temp file may belong to a put in progress');
});

/** A clock that counts its readings: the sweeper reads it once per pass. */
function countingClock() {
  const clock = { passes: 0, now: () => ((clock.passes += 1), Date.now()) };
  return clock;
}

test('the sweeper runs on its own timer and close stops it', async (t) => {
  const clock = countingClock();
  const store = await bootStore({ sweepIntervalMs: 40, now: clock.now });
  const first = newKey();
  await store.put(first, noisePng(8));
  const firstPath = join(store.directory, `${first}.png`);
  await age(firstPath, TTL_MS + 60_000);
  await waitUntil(t, async () => !(await exists(firstPath)), 'the timer swept the expired file');

  await store.close();
  const passesAtClose = clock.passes;
  const second = newKey();
  const secondPath = join(store.directory, `${second}.png`);
  await writeFile(secondPath, noisePng(8));
  await age(secondPath, TTL_MS + 60_000);
  // A store opened after the close, with the same interval, sweeps three times: the closed store's
  // timer, due before this one's, would have fired by then had close not stopped it.
  const control = countingClock();
  await bootStore({ sweepIntervalMs: 40, now: control.now });
  await waitUntil(t, async () => control.passes >= 3, 'a store opened after the close swept three times');
  t.is(clock.passes, passesAtClose, 'no sweep after close');
  t.true(await exists(secondPath), 'no sweep after close');
  await t.throwsAsync(store.sweep(), { instanceOf: StorageUnavailableError });
});

test('an early destroyed body does not break later reads', async (t) => {
  const store = await bootStore();
  const key = newKey();
  const png = noisePng(400);
  await store.put(key, png);
  for (let i = 0; i < 50; i += 1) {
    const opened = await store.open(key);
    opened?.body.destroy();
  }
  t.true((await readAll((await store.open(key))!.body)).equals(png));
});

test('ping fails as unavailable when the directory is gone, without leaking the path', async (t) => {
  const store = await bootStore();
  await t.notThrowsAsync(store.ping());
  await rm(store.directory, { recursive: true });
  const error = await t.throwsAsync(store.ping(), { instanceOf: StorageUnavailableError });
  t.is(error?.reason, 'io_error');
  t.false(error.message.includes(store.directory));
  t.truthy(error?.cause, 'the filesystem error is kept for logs');
  const putError = await t.throwsAsync(store.put(newKey(), noisePng(8)), { instanceOf: StorageUnavailableError });
  t.false(putError.message.includes(store.directory));
});

test('boot fails as unavailable when the directory cannot be created', async (t) => {
  const root = await freshDirectory();
  const blocker = join(root, 'file');
  await writeFile(blocker, 'a file where a directory should be');
  const error = await t.throwsAsync(createDiskMediaStore({ directory: join(blocker, 'media'), ttlMs: TTL_MS }), {
    instanceOf: StorageUnavailableError,
  });
  t.false(error.message.includes(root));
});

test('boot refuses a path that is a file, and non-positive durations', async (t) => {
  const root = await freshDirectory();
  const file = join(root, 'file');
  await writeFile(file, 'x');
  await t.throwsAsync(createDiskMediaStore({ directory: file, ttlMs: TTL_MS }), { instanceOf: StorageUnavailableError });
  await mkdir(join(root, 'ok'));
  await t.throwsAsync(createDiskMediaStore({ directory: join(root, 'ok'), ttlMs: 0 }), { instanceOf: RangeError });
  await t.throwsAsync(createDiskMediaStore({ directory: join(root, 'ok'), ttlMs: TTL_MS, sweepIntervalMs: -1 }), {
    instanceOf: RangeError,
  });
});
