import { lstat, opendir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@utility-api/infra';
import { TEMP_FILE_PATTERN } from './atomic-write.ts';
import { parseMediaName } from '@utility-api/render-jobs';

/** A temp file older than this was left by a crashed writer: no put takes an hour. */
const STRAY_TEMP_FILE_AGE_MS = 60 * 60 * 1000;

export interface SweepOptions {
  directory: string;
  ttlMs: number;
  now: () => number;
  logger?: Logger;
}

export interface SweepReport {
  /** `<key>.<format>` files deleted because their mtime is older than the TTL. */
  expired: number;
  /** Temp files deleted because a writer died before renaming them. */
  strayTempFiles: number;
  /** Files that could not be examined or deleted (logged, retried on the next sweep). */
  failed: number;
}

/**
 * One pass over the media directory. Only names this store writes are considered, so a directory
 * misconfigured to point somewhere shared never loses unrelated files.
 */
export async function sweepMediaDirectory(options: SweepOptions): Promise<SweepReport> {
  const report: SweepReport = { expired: 0, strayTempFiles: 0, failed: 0 };
  const now = options.now();
  const directory = await opendir(options.directory);
  for await (const entry of directory) {
    const isMedia = parseMediaName(entry.name) !== undefined;
    const isTemp = !isMedia && TEMP_FILE_PATTERN.test(entry.name);
    if (!isMedia && !isTemp) continue;
    const path = join(options.directory, entry.name);
    try {
      const stats = await lstat(path);
      if (!stats.isFile()) continue;
      const maxAgeMs = isMedia ? options.ttlMs : STRAY_TEMP_FILE_AGE_MS;
      if (now - stats.mtimeMs <= maxAgeMs) continue;
      await unlink(path);
      if (isMedia) report.expired += 1;
      else report.strayTempFiles += 1;
    } catch (error) {
      // Gone already (a concurrent sweep, or an overwrite renamed it away): nothing to do.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      report.failed += 1;
      options.logger?.warn({ err: error, file: entry.name }, 'media sweeper could not remove a file');
    }
  }
  return report;
}
