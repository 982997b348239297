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
    await syncDirectory(directory);
    return stats;
  } catch (error) {
    // Closing an already closed handle resolves; the temp file is gone once renamed.
    await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
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
