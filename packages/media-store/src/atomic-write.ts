import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Temp files start with a dot so they never look like `<key>.png`, and carry the key for debugging. */
const TEMP_FILE_PREFIX = '.tmp-';
export const TEMP_FILE_PATTERN = /^\.tmp-[0-9a-f-]{36}-[0-9a-f]{12}$/;

/**
 * Writes `bytes` to `directory/name` so that no reader and no crash can ever observe a partial
 * file: write a temp file in the same directory (same filesystem, so rename is atomic), fsync it,
 * rename it over the target, then fsync the directory so the rename itself survives a power cut.
 * Concurrent writes into one directory share directory syncs (see {@link directorySync}).
 * Returns the stats of the written file (its mtime is the object's last-modified time).
 */
export async function writeFileAtomically(directory: string, name: string, tag: string, bytes: Buffer): Promise<Stats> {
  const tempPath = join(directory, `${TEMP_FILE_PREFIX}${tag}-${randomBytes(6).toString('hex')}`);
  const handle = await open(tempPath, 'wx', 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
    const stats = await handle.stat();
    await handle.close();
    await rename(tempPath, join(directory, name));
    await directorySync(directory)();
    return stats;
  } catch (error) {
    // Closing an already closed handle resolves; the temp file is gone once renamed.
    await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Group commit for a directory's entries: one fsync makes every rename done before it durable,
 * so a write whose rename happened while a sync was already running waits for the next sync,
 * and every write that arrives meanwhile shares that one. Under load (eight cards stored at once)
 * this is one directory open, fsync and close for a batch instead of one per card; alone, a write
 * syncs at once as before.
 */
function directorySync(directory: string): () => Promise<void> {
  let syncer = directorySyncers.get(directory);
  if (syncer === undefined) {
    syncer = groupCommit(() => syncDirectory(directory));
    directorySyncers.set(directory, syncer);
  }
  return syncer;
}

const directorySyncers = new Map<string, () => Promise<void>>();

export function groupCommit(sync: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = () => {
    running = sync().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    // The running sync may have started before the caller's rename: only the next one covers it.
    if (next !== undefined) return next;
    if (running === undefined) return start();
    next = running.then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}

async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Some platforms and filesystems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
