import type { Cluster, Redis } from 'ioredis';
import { withDeadline } from './deadline.ts';
import type { Logger } from './logging.ts';

/** How long boot waits for Redis before failing: a service must not hang on it. */
const REDIS_BOOT_TIMEOUT_MS = 10_000;
/** How long boot waits for `CONFIG GET` before carrying on as if CONFIG were disabled. */
const CONFIG_TIMEOUT_MS = 2000;

/**
 * Boot's Redis gate for the BullMQ users (the gateway in distributed mode, renderers): the
 * connection is ready within REDIS_BOOT_TIMEOUT_MS, and its eviction policy keeps jobs.
 */
export async function checkRedisAtBoot(redis: Redis | Cluster, options: { allowEviction: boolean; logger: Logger }): Promise<void> {
  if (redis.status !== 'ready') {
    // Not `events.once`: it rejects on the first 'error', and ioredis reports each failed reconnect as one.
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => redis.once('ready', (onReady = resolve)));
    await withDeadline(ready, REDIS_BOOT_TIMEOUT_MS, 'Redis at boot').finally(() => redis.off('ready', onReady));
  }
  // In a cluster every master holds part of the queue: each one's policy counts.
  if (!redis.isCluster) {
    await checkRedisEvictionPolicy(redis as Redis, options);
    return;
  }
  for (const node of (redis as Cluster).nodes('master')) {
    await checkRedisEvictionPolicy(node, { ...options, logger: options.logger.child({ redisNode: `${node.options.host}:${node.options.port}` }) });
  }
}

/**
 * Reads `maxmemory-policy` at boot (gateway in distributed mode and renderers): under eviction
 * BullMQ loses jobs and their locks silently. `noeviction` passes; any other policy is logged as
 * an error and refuses boot unless `allowEviction`; a server that will not tell (managed Redis
 * often disables CONFIG) is a warning and boot goes on.
 */
async function checkRedisEvictionPolicy(redis: Redis, options: { allowEviction: boolean; logger: Logger }): Promise<void> {
  const { logger } = options;
  let policy: unknown;
  try {
    const reply = await withDeadline(redis.config('GET', 'maxmemory-policy'), CONFIG_TIMEOUT_MS, 'CONFIG GET maxmemory-policy');
    // RESP2 answers a flat [name, value] list, RESP3 a map; an empty one means the server hides the setting.
    policy = Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null)?.['maxmemory-policy'];
  } catch (error) {
    policy = error;
  }
  if (typeof policy !== 'string' || policy === '') {
    const reason = policy instanceof Error ? policy.message : 'CONFIG GET returned no value';
    logger.warn({ reason }, 'could not read Redis maxmemory-policy (CONFIG disabled?): make sure it is "noeviction", BullMQ loses jobs under eviction');
  } else if (policy !== 'noeviction') {
    const message =
      `Redis maxmemory-policy is "${policy}": BullMQ loses jobs when keys are evicted. ` +
      'Set "maxmemory-policy noeviction" on the Redis server, or ALLOW_REDIS_EVICTION=true to start anyway.';
    logger.error({ policy, allowRedisEviction: options.allowEviction }, message);
    if (!options.allowEviction) throw new Error(message);
  }
}
