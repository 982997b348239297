import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { apiKeyRecordSchema, KeyStoreDataError, type ApiKeyRecord } from './api-key-record.ts';
import type { ApiKeyRecords, KeyRecordsSnapshot } from './api-key-records.ts';

const FILE_FORMAT = 'utility-api/api-keys@1';
const keysFileSchema = z.object({ format: z.literal(FILE_FORMAT), keys: z.array(apiKeyRecordSchema) });

const LOCK_WAIT_MS = 5000;
/** A lock older than this was left by a CLI that died mid-write. */
const STALE_LOCK_MS = 10_000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** The file is replaced by rename on every write, so a new inode (or size, or mtime) means new content. */
function versionOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/**
 * Managed keys in a local JSON file (embedded mode). Writes go to a temp file (0600) in the same
 * folder that is then renamed over the old one, so a reader never sees half a file; writers take a
 * lock file so two CLI runs cannot lose each other's change.
 */
export function fileApiKeyRecords(path: string): ApiKeyRecords {
  const file = resolve(path);

  const read = async (): Promise<KeyRecordsSnapshot> => {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return { version: 'absent', records: [] };
      throw error;
    }
    try {
      // Version and content from the same open file, so they always belong together.
      const version = versionOf(await handle.stat());
      const text = await handle.readFile('utf8');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new KeyStoreDataError(file, error);
      }
      const parsed = keysFileSchema.safeParse(value);
      if (!parsed.success) throw new KeyStoreDataError(file, new Error(z.prettifyError(parsed.error)));
      return { version, records: parsed.data.keys };
    } finally {
      await handle.close();
    }
  };

  const write = async (records: readonly ApiKeyRecord[]) => {
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ format: FILE_FORMAT, keys: records }, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  };

  const locked = async <T>(change: () => Promise<T>): Promise<T> => {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const lock = `${file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await (await open(lock, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lock).then((stats) => Date.now() - stats.mtimeMs, () => 0);
        if (age > STALE_LOCK_MS) await rm(lock, { force: true });
        else if (Date.now() > deadline) throw new Error(`${lock} is held by another process; remove it if no \`pnpm keys\` is running`, { cause: error });
        else await sleep(25);
      }
    }
    try {
      return await change();
    } finally {
      await rm(lock, { force: true });
    }
  };

  return {
    kind: 'file',
    location: file,
    async version() {
      try {
        return versionOf(await stat(file));
      } catch (error) {
        if (isMissing(error)) return 'absent';
        throw error;
      }
    },
    snapshot: read,
    insert: (record) =>
      locked(async () => {
        const { records } = await read();
        if (records.some((existing) => existing.id === record.id)) return false;
        await write([...records, record]);
        return true;
      }),
    revoke: (id, at) =>
      locked(async () => {
        const { records } = await read();
        const record = records.find((existing) => existing.id === id);
        if (!record || record.revokedAt !== null) return record;
        const revoked: ApiKeyRecord = { ...record, revokedAt: at.toISOString() };
        await write(records.map((existing) => (existing.id === id ? revoked : existing)));
        return revoked;
      }),
  };
}
