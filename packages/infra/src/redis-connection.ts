import { Redis, type RedisOptions } from 'ioredis';

/**
 * The two kinds of Redis connection BullMQ needs. Blocking readers (Worker, QueueEvents) must
 * retry forever (`maxRetriesPerRequest: null`, BullMQ refuses anything else); a producer answering
 * HTTP requests must fail fast instead, so a Redis outage is a prompt 503 and not a hung request.
 */
export type RedisRole = 'blocking' | 'producer';

const RECONNECT_DELAY_MS = { initial: 100, max: 2000 };

export function createRedisConnection(url: string, role: RedisRole, name: string): Redis {
  const common: RedisOptions = {
    connectionName: name,
    // Reconnect forever, backing off; readiness probes report the outage meanwhile.
    retryStrategy: (attempt) => Math.min(RECONNECT_DELAY_MS.initial * 2 ** Math.min(attempt, 10), RECONNECT_DELAY_MS.max),
    connectTimeout: 2000,
  };
  const options: RedisOptions =
    role === 'blocking'
      ? { ...common, maxRetriesPerRequest: null }
      : { ...common, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2000 };
  return new Redis(url, options);
}

/** Resolves once the connection is ready, or rejects after `timeoutMs` (boot must not hang on Redis). */
export async function waitUntilRedisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis not reachable within ${timeoutMs} ms`));
    }, timeoutMs);
    redis.once('ready', onReady);
  });
}
