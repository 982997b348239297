import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeRedisTarget, redisEnvironmentShape, refineRedisEnvironment, toRedisTarget, type RedisTarget } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import { z } from 'zod';
import type { KeyRateLimits } from '../rate-limits/rate-spec.ts';
import { apiKeyRecordSchema, generateKeyId, generateManagedKey, hashApiKey, managedKeyPrefix, parseStoredKeys, type ApiKeyRecord } from './api-keys.ts';

/** Where the managed keys file is, for the gateway and for `pnpm keys`. */
export const keysFileField = z.string().default('.data/api-keys.json');

/** What `pnpm keys` reads: the gateway's own variables that say where managed keys live. */
export const keysEnvironmentSchema = z
  .object({ ...redisEnvironmentShape, KEYS_FILE: keysFileField })
  .superRefine((env, context) => refineRedisEnvironment(env, context, { required: false }))
  .transform((env) => ({ redis: toRedisTarget(env), keysFile: env.KEYS_FILE }));

/** Every record at one moment, with a token that changes whenever any record does. */
export interface KeyRecordsSnapshot {
  version: string;
  records: readonly ApiKeyRecord[];
}

/**
 * Where managed keys are kept: Redis in distributed mode, a JSON file in embedded mode. The
 * gateway only reads (`version` is polled, `snapshot` reloaded when it changed); the `pnpm keys`
 * CLI writes.
 */
export interface ApiKeyRecords {
  readonly kind: 'redis' | 'file';
  /** For messages: where Redis is, without credentials, or the file path. */
  readonly location: string;
  /** Cheap: one GET in Redis, one stat of the file. */
  version(): Promise<string>;
  snapshot(): Promise<KeyRecordsSnapshot>;
  /** Adds a record; false when its id is taken. */
  insert(record: ApiKeyRecord): Promise<boolean>;
  /** Marks a record revoked; returns it as it now is, or undefined when there is no such id. */
  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined>;
}

/** Where `pnpm keys` and the gateway both find managed keys: Redis when there is one, else the file. */
export function apiKeyRecordsFor(options: { redis: { client: RedisClient; target: RedisTarget } | undefined; keysFile: string }): ApiKeyRecords {
  return options.redis ? redisApiKeyRecords(options.redis.client, describeRedisTarget(options.redis.target)) : fileApiKeyRecords(options.keysFile);
}

const ID_ATTEMPTS = 5;

/** `pnpm keys create`: a new key, of which only the hash is stored; the key itself is returned once. */
export async function createApiKey(
  records: ApiKeyRecords,
  options: { name: string; limits?: KeyRateLimits; now: Date },
): Promise<{ key: string; record: ApiKeyRecord }> {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt += 1) {
    const id = generateKeyId();
    const key = generateManagedKey(id);
    const record: ApiKeyRecord = {
      id,
      name: options.name,
      prefix: managedKeyPrefix(id),
      hash: hashApiKey(key).toString('hex'),
      createdAt: options.now.toISOString(),
      revokedAt: null,
      ...(options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {}),
    };
    if (await records.insert(record)) return { key, record };
  }
  throw new Error(`no free key id after ${ID_ATTEMPTS} attempts`);
}

export async function listApiKeys(records: ApiKeyRecords): Promise<ApiKeyRecord[]> {
  const { records: all } = await records.snapshot();
  return [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * One hash of id → record JSON, and a counter bumped on every change for gateways to poll. They
 * are read and changed together in MULTI, which a Redis Cluster allows only within one slot: the
 * counter's hash tag is the records key's whole name, so both hash to the records key's slot and
 * the records keep the name they always had.
 */
const REDIS_KEY_RECORDS = 'utility-api:api-keys';
const REDIS_KEY_VERSION = `{${REDIS_KEY_RECORDS}}:version`;

/** Managed keys in Redis, shared by every gateway on it. */
function redisApiKeyRecords(redis: RedisClient, location: string): ApiKeyRecords {
  const parseStored = (json: string, id: string) => parseStoredKeys(apiKeyRecordSchema, json, `Redis ${REDIS_KEY_RECORDS}[${id}]`);
  return {
    kind: 'redis',
    location,
    version: async () => (await redis.get(REDIS_KEY_VERSION)) ?? '0',
    async snapshot() {
      // One transaction, so the version belongs to exactly these records.
      const replies = await redis.multi().get(REDIS_KEY_VERSION).hgetall(REDIS_KEY_RECORDS).exec();
      const [versionReply, recordsReply] = replies ?? [];
      if (!versionReply || !recordsReply || versionReply[0] || recordsReply[0]) {
        throw versionReply?.[0] ?? recordsReply?.[0] ?? new Error('Redis transaction was aborted');
      }
      const stored = (recordsReply[1] ?? {}) as Record<string, string>;
      return {
        version: (versionReply[1] as string | null) ?? '0',
        records: Object.entries(stored).map(([id, json]) => parseStored(json, id)),
      };
    },
    async insert(record) {
      if ((await redis.hsetnx(REDIS_KEY_RECORDS, record.id, JSON.stringify(record))) === 0) return false;
      await redis.incr(REDIS_KEY_VERSION);
      return true;
    },
    async revoke(id, at) {
      const json = await redis.hget(REDIS_KEY_RECORDS, id);
      if (json === null) return undefined;
      const record = parseStored(json, id);
      if (record.revokedAt !== null) return record;
      const revoked: ApiKeyRecord = { ...record, revokedAt: at.toISOString() };
      await redis.multi().hset(REDIS_KEY_RECORDS, id, JSON.stringify(revoked)).incr(REDIS_KEY_VERSION).exec();
      return revoked;
    },
  };
}

const FILE_FORMAT = 'utility-api/api-keys@1';
const keysFileSchema = z.object({ format: z.literal(FILE_FORMAT), keys: z.array(apiKeyRecordSchema) });
const LOCK_WAIT_MS = 5000;
/** A lock older than this was left by a CLI that died mid-write. */
const STALE_LOCK_MS = 10_000;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
/** The file is replaced by rename on every write, so a new inode (or size, or mtime) means new content. */
const versionOf = (stats: Stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}`;

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
      return { version, records: parseStoredKeys(keysFileSchema, await handle.readFile('utf8'), file).keys };
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

  const locked = async <T>(change: (records: readonly ApiKeyRecord[]) => Promise<T>): Promise<T> => {
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
      return await change((await read()).records);
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
      locked(async (records) => {
        if (records.some((existing) => existing.id === record.id)) return false;
        await write([...records, record]);
        return true;
      }),
    revoke: (id, at) =>
      locked(async (records) => {
        const record = records.find((existing) => existing.id === id);
        if (!record || record.revokedAt !== null) return record;
        const revoked: ApiKeyRecord = { ...record, revokedAt: at.toISOString() };
        await write(records.map((existing) => (existing.id === id ? revoked : existing)));
        return revoked;
      }),
  };
}
