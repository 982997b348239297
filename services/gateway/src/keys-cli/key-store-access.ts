import { parseEnvironment } from '@utility-api/infra';
import { createRedisConnection } from '@utility-api/infra/redis';
import type { Redis } from 'ioredis';
import type { ApiKeyRecords } from '../auth/api-key-records.ts';
import { keysEnvironmentSchema } from '../auth/keys-environment.ts';
import { apiKeyRecordsFor } from '../auth/open-api-keys.ts';

const REDIS_CONNECT_TIMEOUT_MS = 5000;

export class StoreUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

export interface KeyStoreAccess {
  records: ApiKeyRecords;
  close(): void;
}

/** Picks the backend as the gateway does: Redis when `REDIS_URL` is set, else the keys file. */
export async function openKeyStore(environment: Record<string, string | undefined>): Promise<KeyStoreAccess> {
  const env = parseEnvironment(keysEnvironmentSchema, environment);
  if (env.REDIS_URL === undefined) {
    return { records: apiKeyRecordsFor({ redis: undefined, redisUrl: undefined, keysFile: env.KEYS_FILE }), close: () => {} };
  }
  const redis = createRedisConnection(env.REDIS_URL, 'producer', 'keys-cli');
  const records = apiKeyRecordsFor({ redis, redisUrl: env.REDIS_URL, keysFile: env.KEYS_FILE });
  try {
    await connected(redis, REDIS_CONNECT_TIMEOUT_MS);
  } catch (error) {
    redis.disconnect();
    throw new StoreUnavailableError(`cannot reach Redis at ${records.location}: ${(error as Error).message}`, error);
  }
  redis.on('error', () => {});
  return { records, close: () => redis.disconnect() };
}

/** Ready, or the first connection error: a CLI says at once that Redis is not there instead of retrying as a service does. */
function connected(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    redis.on('ready', onReady);
    redis.on('error', settle);
  });
}
