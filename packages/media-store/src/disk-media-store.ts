import { createHash, type Hash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, mkdir, open, stat as statPath, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from '@utility-api/infra';
import { LRUCache } from 'lru-cache';
import { writeFileAtomically } from './atomic-write.ts';
import { sweepMediaDirectory, type SweepReport } from './disk-sweeper.ts';
import { DEFAULT_MEDIA_FORMAT, MEDIA_FORMATS, mediaObjectName, type MediaFormat } from '@utility-api/render-jobs';
import { assertMediaKey } from './media-key.ts';
import { type MediaObject, type MediaStore, type OpenedMedia } from './media-store.ts';
import { StorageUnavailableError } from './storage-errors.ts';

const DEFAULT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The bytes of the files this process wrote last, served from memory when they are opened while
 * still the same file (same inode, size and mtime): a card is read back for its image answer right
 * after it was stored, and reading it from disk cost the embedded gateway a stream, three reads and
 * their thread-pool round trips per card. 8 MiB holds the last ~50 cards (135-185 KB each), far more
 * than are answered at once.
 */
const RECENT_WRITES_BYTES = 8 * 1024 * 1024;

export interface DiskMediaStoreOptions {
  directory: string;
  /** Files whose mtime is older than this are deleted by the sweeper. */
  ttlMs: number;
  sweepIntervalMs?: number;
  logger?: Logger;
  /** Clock for the sweeper's age comparisons (tests move time instead of waiting). */
  now?: () => number;
}

export interface DiskMediaStore extends MediaStore {
  readonly kind: 'disk';
  readonly directory: string;
  /** Runs one full sweep now, after any pass already running (the timer does the same every `sweepIntervalMs`). */
  sweep(): Promise<SweepReport>;
}

/**
 * Media on local disk for the embedded mode: `<directory>/<key>.<format>`, written atomically, expired by
 * a sweeper that runs once right after boot (so frequent restarts still sweep) and then on an
 * unref'd interval.
 */
export async function createDiskMediaStore(options: DiskMediaStoreOptions): Promise<DiskMediaStore> {
  requirePositive('ttlMs', options.ttlMs);
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  requirePositive('sweepIntervalMs', sweepIntervalMs);
  const directory = resolve(options.directory);
  const now = options.now ?? Date.now;
  const logger = options.logger;
  // Content ETags of files this process wrote or already hashed, so `stat` and `open` do not read a
  // whole image to answer a conditional request. Keyed by inode, size and mtime too: a `put` renames
  // a new inode over the old one, so a changed file never matches an old entry.
  const etags = new LRUCache<string, string>({ max: 4096 });
  const etagKey = (name: string, stats: Stats) => `${name}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  // Keyed like the ETags, so only the very file written matches. The buffers are the callers' (a
  // rendered image nobody changes afterwards), kept without a copy.
  const recentWrites = new LRUCache<string, Buffer>({ maxSize: RECENT_WRITES_BYTES, sizeCalculation: (bytes) => Math.max(1, bytes.length) });

  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw new StorageUnavailableError('io_error', { cause: error });
  }
  await checkDirectory(directory);

  let closed = false;
  let sweeping: Promise<SweepReport> | undefined;

  const ensureOpen = () => {
    if (closed) throw new StorageUnavailableError('closed');
  };

  const runSweep = (): Promise<SweepReport> => {
    const run = sweepMediaDirectory({ directory, ttlMs: options.ttlMs, now, logger })
      .then((report) => {
        if (report.expired > 0 || report.strayTempFiles > 0) logger?.info({ ...report }, 'media sweeper removed files');
        return report;
      })
      .finally(() => {
        sweeping = undefined;
      });
    sweeping = run;
    return run;
  };
  const sweep = async (): Promise<SweepReport> => {
    ensureOpen();
    // An explicit sweep must see the directory as it is now, so it waits for a pass already running.
    while (sweeping) await sweeping.catch(() => undefined);
    ensureOpen();
    return runSweep();
  };
  const sweepInBackground = () => {
    if (closed || sweeping) return;
    runSweep().catch((error: unknown) => logger?.warn({ err: error }, 'media sweep failed'));
  };
  const firstSweep = setTimeout(sweepInBackground, 0).unref();
  const sweepTimer = setInterval(sweepInBackground, sweepIntervalMs).unref();

  /** Describes the file behind an open handle, so the metadata and the bytes served belong to the same inode. */
  const describe = async (key: string, format: MediaFormat, handle: FileHandle): Promise<{ object: MediaObject; fileKey: string } | undefined> => {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const name = mediaObjectName(key, format);
    const fileKey = etagKey(name, stats);
    let etag = etags.get(fileKey);
    if (etag === undefined) {
      etag = await fileContentEtag(handle);
      etags.set(fileKey, etag);
    }
    return { object: { key, size: stats.size, etag, lastModified: stats.mtime, format, contentType: MEDIA_FORMATS[format] }, fileKey };
  };

  const openMedia = async (key: string, format: MediaFormat = DEFAULT_MEDIA_FORMAT): Promise<OpenedMedia | undefined> => {
    assertMediaKey(key);
    ensureOpen();
    let handle: FileHandle | undefined;
    try {
      handle = await open(join(directory, mediaObjectName(key, format)), 'r');
      const described = await describe(key, format, handle);
      if (!described) {
        await handle.close();
        return undefined;
      }
      const { object, fileKey } = described;
      const written = recentWrites.get(fileKey);
      if (written !== undefined) {
        await handle.close();
        return { object, body: Readable.from([written], { objectMode: false }) };
      }
      // The stream owns the handle from here on and closes it on end, error or destroy.
      return { object, body: handle.createReadStream({ start: 0 }) };
    } catch (error) {
      if (handle === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      await handle?.close().catch(() => undefined);
      throw new StorageUnavailableError('io_error', { cause: error });
    }
  };

  return {
    kind: 'disk',
    directory,
    sweep,

    async put(key, bytes, format = DEFAULT_MEDIA_FORMAT, contentSha256) {
      assertMediaKey(key);
      ensureOpen();
      try {
        const name = mediaObjectName(key, format);
        const stats = await writeFileAtomically(directory, name, key, bytes);
        const etag = contentSha256 === undefined ? contentEtag(bytes) : etagFromSha256(contentSha256);
        etags.set(etagKey(name, stats), etag);
        recentWrites.set(etagKey(name, stats), bytes);
        return { key, size: stats.size, etag, lastModified: stats.mtime, format, contentType: MEDIA_FORMATS[format] };
      } catch (error) {
        throw new StorageUnavailableError('io_error', { cause: error });
      }
    },

    // Opened the same way as to serve it, so the metadata and the bytes belong to one inode.
    async stat(key, format) {
      const opened = await openMedia(key, format);
      opened?.body.destroy();
      return opened?.object;
    },

    open: openMedia,

    async ping() {
      ensureOpen();
      await checkDirectory(directory);
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(firstSweep);
      clearInterval(sweepTimer);
      // A sweep in flight finishes its current pass; waiting lets callers remove the directory safely.
      await sweeping?.catch(() => undefined);
    },
  };
}

async function checkDirectory(directory: string): Promise<void> {
  try {
    const stats = await statPath(directory);
    if (!stats.isDirectory()) throw new Error('media path is not a directory');
    await access(directory, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StorageUnavailableError('io_error', { cause: error });
  }
}

function requirePositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of milliseconds`);
}

/** 128 bits of sha-256 are plenty to tell two card images apart and keep the header short. */
function quotedDigest(hash: Hash): string {
  return etagFromSha256(hash.digest());
}

function etagFromSha256(digest: Buffer): string {
  return `"${digest.toString('hex', 0, 16)}"`;
}

/** A strong ETag derived from the bytes, so identical content has the same tag on every node. */
function contentEtag(bytes: Buffer): string {
  return quotedDigest(createHash('sha256').update(bytes));
}

/** Same tag as `contentEtag`, read from an open file from its start; the handle stays open. */
async function fileContentEtag(handle: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of handle.createReadStream({ start: 0, autoClose: false, highWaterMark: 64 * 1024 })) hash.update(chunk as Buffer);
  return quotedDigest(hash);
}
