import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createDiskMediaStore,
  createS3MediaStore,
  InvalidMediaKeyError,
  StorageUnavailableError,
  type MediaStore,
} from '@utility-api/media-store';
import test from 'ava';
import sharp from 'sharp';
import { newKey, readAll } from '../../support/media-store/fixtures.ts';
import { noisePng } from '../../fixtures/images.ts';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, startS3rver, type RunningS3rver } from '../../support/media-store/s3rver-server.ts';

/**
 * The behaviour the gateway and the renderer rely on, run against both implementations: every
 * test below is registered once per store.
 */
interface Implementation {
  name: 'disk' | 's3';
  create(): Promise<MediaStore>;
  /** Something that changes whenever the store touches its storage (directory entries / request count). */
  footprint(): Promise<string>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
let workDirectory = '';
let s3rver: RunningS3rver;
const stores = new Map<string, MediaStore>();
const opened: MediaStore[] = [];

const implementations: Implementation[] = [
  {
    name: 'disk',
    create: () => createDiskMediaStore({ directory: join(workDirectory, 'media'), ttlMs: 30 * DAY_MS }),
    footprint: async () => {
      // The parent too: a traversal would land next to the media directory.
      const inside = await readdir(join(workDirectory, 'media'));
      const beside = await readdir(dirname(join(workDirectory, 'media')));
      return JSON.stringify([inside.sort(), beside.sort()]);
    },
  },
  {
    name: 's3',
    create: () =>
      createS3MediaStore({
        endpoint: s3rver.endpoint,
        accessKey: S3RVER_ACCESS_KEY,
        secretKey: S3RVER_SECRET_KEY,
        bucket: 'contract-media',
        ttlDays: 30,
        requestTimeoutMs: 5000,
      }),
    footprint: async () => String(s3rver.requestCount()),
  },
];

async function track(store: MediaStore): Promise<MediaStore> {
  opened.push(store);
  return store;
}

test.before(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'media-store-contract-'));
  s3rver = await startS3rver();
  for (const implementation of implementations) stores.set(implementation.name, await track(await implementation.create()));
});

test.after.always(async () => {
  for (const store of opened) await store.close();
  await s3rver?.stop();
  if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
});

function storeOf(implementation: Implementation): MediaStore {
  const store = stores.get(implementation.name);
  if (!store) throw new Error(`${implementation.name} store did not boot`);
  return store;
}

const UPPERCASE_KEY = newKey().toUpperCase().replace(/^[0-9]/, 'A');
const INVALID_KEYS = [
  '../etc/passwd',
  'ABC',
  UPPERCASE_KEY,
  'x.png',
  `${newKey()}.png`,
  `../${newKey()}`,
  `${newKey()}\n`,
  ` ${newKey()}`,
  `{${newKey()}}`,
  newKey().replaceAll('-', ''),
  '',
];

for (const implementation of implementations) {
  const name = implementation.name;

  test(`${name}: kind names the implementation`, (t) => {
    t.is(storeOf(implementation).kind, name);
  });

  test(`${name}: put → stat → open round-trips the exact bytes and metadata`, async (t) => {
    const store = storeOf(implementation);
    const key = newKey();
    const png = noisePng(600);
    t.true(png.length > 1_000_000, 'large enough to be streamed in many chunks');

    const put = await store.put(key, png);
    t.is(put.key, key);
    t.is(put.size, png.length);
    t.is(put.contentType, 'image/png');
    t.regex(put.etag, /^"[^"]+"$/, 'a strong, quoted ETag');

    const stat = await store.stat(key);
    t.truthy(stat);
    t.is(stat?.key, key);
    t.is(stat?.size, png.length);
    t.is(stat?.etag, put.etag);
    t.is(stat?.contentType, 'image/png');
    t.true(Math.abs((stat?.lastModified.getTime() ?? 0) - Date.now()) < 5 * 60_000, 'lastModified is about now');

    const opened = await store.open(key);
    t.truthy(opened);
    t.deepEqual(opened?.object, stat);
    const bytes = await readAll(opened!.body);
    t.true(bytes.equals(png), 'identical bytes');
  });

  test(`${name}: the ETag is stable for the same bytes and changes with them`, async (t) => {
    const store = storeOf(implementation);
    const key = newKey();
    const first = noisePng(32);
    const second = noisePng(48);

    const put = await store.put(key, first);
    t.is((await store.stat(key))?.etag, put.etag);
    t.is((await store.stat(key))?.etag, put.etag, 'asking twice gives the same tag');
    t.is((await store.put(key, first)).etag, put.etag, 'putting the same bytes again gives the same tag');
    t.is((await store.put(newKey(), first)).etag, put.etag, 'same bytes under another key: same tag');

    const replaced = await store.put(key, second);
    t.not(replaced.etag, put.etag);
    const stat = await store.stat(key);
    t.is(stat?.etag, replaced.etag);
    t.is(stat?.size, second.length);
    t.true((await readAll((await store.open(key))!.body)).equals(second));
  });

  test(`${name}: one key holds each format as its own object, with its own content type; png is the default`, async (t) => {
    const store = storeOf(implementation);
    const key = newKey();
    const png = noisePng(16);
    const webp = await sharp(png).webp({ quality: 90 }).toBuffer();
    await store.put(key, png);
    t.is(await store.stat(key, 'webp'), undefined, 'the PNG is not the WebP');
    const put = await store.put(key, webp, 'webp');
    t.deepEqual([put.format, put.contentType, put.size], ['webp', 'image/webp', webp.length]);
    const stat = await store.stat(key, 'webp');
    t.deepEqual([stat?.format, stat?.contentType, stat?.etag], ['webp', 'image/webp', put.etag]);
    t.true((await readAll((await store.open(key, 'webp'))!.body)).equals(webp));
    t.deepEqual([(await store.stat(key))?.format, (await store.stat(key, 'png'))?.size], ['png', png.length]);
    t.true((await readAll((await store.open(key))!.body)).equals(png));
    t.is(await store.open(key, 'avif'), undefined);
  });

  test(`${name}: a missing key is undefined for stat and open`, async (t) => {
    const store = storeOf(implementation);
    const key = newKey();
    t.is(await store.stat(key), undefined);
    t.is(await store.open(key), undefined);
  });

  // Serial (AVA runs these before the concurrent tests) so no other test moves the footprint meanwhile.
  test.serial(`${name}: invalid keys throw InvalidMediaKeyError before touching storage`, async (t) => {
    const store = storeOf(implementation);
    const png = noisePng(8);
    const before = await implementation.footprint();
    for (const key of INVALID_KEYS) {
      const label = JSON.stringify(key);
      await t.throwsAsync(store.put(key, png), { instanceOf: InvalidMediaKeyError }, `put ${label}`);
      await t.throwsAsync(store.stat(key), { instanceOf: InvalidMediaKeyError }, `stat ${label}`);
      await t.throwsAsync(store.open(key), { instanceOf: InvalidMediaKeyError }, `open ${label}`);
    }
    t.is(await implementation.footprint(), before, 'no file written, no request sent');
  });

  test(`${name}: ping resolves on a healthy store`, async (t) => {
    await t.notThrowsAsync(storeOf(implementation).ping());
  });

  test(`${name}: close is idempotent and later calls fail as unavailable`, async (t) => {
    const store = await track(await implementation.create());
    const key = newKey();
    await store.put(key, noisePng(8));
    await store.close();
    await t.notThrowsAsync(store.close());
    for (const call of [store.ping(), store.stat(key), store.open(key), store.put(key, noisePng(8))]) {
      const error = await t.throwsAsync(call, { instanceOf: StorageUnavailableError });
      t.is(error?.reason, 'closed');
    }
  });
}
