import { type Logger, withDeadline } from '@utility-api/infra';
import type { Redis } from 'ioredis';

/** How long boot waits for `CONFIG GET` before carrying on as if CONFIG were disabled. */
const CONFIG_TIMEOUT_MS = 2000;

/** Redis may evict keys under memory pressure: BullMQ would then lose jobs and their locks silently. */
export class RedisEvictionPolicyError extends Error {
  override readonly name = 'RedisEvictionPolicyError';
  readonly policy: string;

  constructor(policy: string) {
    super(
      `Redis maxmemory-policy is "${policy}": BullMQ loses jobs when keys are evicted. ` +
        'Set "maxmemory-policy noeviction" on the Redis server, or ALLOW_REDIS_EVICTION=true to start anyway.',
    );
    this.policy = policy;
  }
}

export type EvictionPolicyCheck =
  | { outcome: 'noeviction' }
  | { outcome: 'evicting'; policy: string }
  | { outcome: 'unknown'; reason: string };

/**
 * Reads `maxmemory-policy` at boot (gateway in distributed mode and renderers). `noeviction` passes;
 * any other policy is logged as an error and refuses boot unless `allowEviction`; a server that
 * will not tell (managed Redis often disables CONFIG) is a warning and boot goes on.
 */
export async function checkRedisEvictionPolicy(redis: Redis, options: { allowEviction: boolean; logger: Logger }): Promise<EvictionPolicyCheck> {
  const { logger } = options;
  const check = await readEvictionPolicy(redis);
  if (check.outcome === 'unknown') {
    logger.warn(
      { reason: check.reason },
      'could not read Redis maxmemory-policy (CONFIG disabled?): make sure it is "noeviction", BullMQ loses jobs under eviction',
    );
  } else if (check.outcome === 'evicting') {
    const error = new RedisEvictionPolicyError(check.policy);
    logger.error({ policy: check.policy, allowRedisEviction: options.allowEviction }, error.message);
    if (!options.allowEviction) throw error;
  }
  return check;
}

async function readEvictionPolicy(redis: Redis): Promise<EvictionPolicyCheck> {
  try {
    const reply = await withDeadline(redis.config('GET', 'maxmemory-policy'), CONFIG_TIMEOUT_MS, 'CONFIG GET maxmemory-policy');
    // RESP2 answers a flat [name, value] list, RESP3 a map; an empty one means the server hides the setting.
    const policy: unknown = Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null)?.['maxmemory-policy'];
    if (typeof policy !== 'string' || policy === '') return { outcome: 'unknown', reason: 'CONFIG GET returned no value' };
    return policy === 'noeviction' ? { outcome: 'noeviction' } : { outcome: 'evicting', policy };
  } catch (error) {
    return { outcome: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
}
