import { type Logger, withDeadline } from '@utility-api/infra';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitDecision } from './limit-decision.ts';
import type { RateSpec } from './rate-spec.ts';

/** Redis keys of the counters start with this; rate-limiter-flexible appends `:<budget>:<key>`. */
export const RATE_LIMIT_KEY_PREFIX = 'utility-api:ratelimit';

/**
 * A limit check must not slow the light endpoints down when Redis is slow: past this the request
 * is counted in memory instead, and Redis is left alone for `STORE_RETRY_MS`.
 */
export const STORE_TIMEOUT_MS = 200;
export const STORE_RETRY_MS = 1000;

interface Limiters {
  store: RateLimiterRedis | undefined;
  memory: RateLimiterMemory;
}

export interface RateCounterOptions {
  /** Counters shared by every gateway on this Redis; without it, counters live in this process. */
  redis: Redis | undefined;
  logger: Logger;
  storeTimeoutMs?: number;
  storeRetryMs?: number;
}

/**
 * Fixed-window counters from rate-limiter-flexible: in Redis when the gateway has one (one EVALSHA
 * per request, and a key over its budget is then refused from memory until its window ends), in
 * process memory otherwise.
 *
 * Fail-open when Redis is down or slow: the request is counted by an in-memory limiter with the
 * same budget instead, so each gateway still enforces the budget on its own (a caller may get up
 * to N times the budget across N gateways during the outage) and no request waits on Redis.
 * Card renders fail with 503 while Redis is down anyway; the light endpoints keep serving.
 */
export class RateCounter {
  readonly #redis: Redis | undefined;
  readonly #logger: Logger;
  readonly #storeTimeoutMs: number;
  readonly #storeRetryMs: number;
  readonly #limiters = new Map<string, Limiters>();
  #storeRetryAt = 0;
  #storeFailing = false;

  constructor(options: RateCounterOptions) {
    this.#redis = options.redis;
    this.#logger = options.logger;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
    this.#storeRetryMs = options.storeRetryMs ?? STORE_RETRY_MS;
  }

  get shared(): boolean {
    return this.#redis !== undefined;
  }

  /** Spends one request of `key` from the budget named `budget`, allowed `spec`. */
  async consume(budget: string, key: string, spec: RateSpec): Promise<LimitDecision> {
    const limiters = this.#limitersFor(budget, spec);
    if (limiters.store && performance.now() >= this.#storeRetryAt) {
      try {
        const outcome = await withDeadline(settle(limiters.store, key), this.#storeTimeoutMs, 'rate limit store');
        this.#storeAnswered();
        return decision(spec, outcome);
      } catch (error) {
        this.#storeFailed(error);
      }
    }
    return decision(spec, await settle(limiters.memory, key));
  }

  #limitersFor(budget: string, spec: RateSpec): Limiters {
    const id = `${budget}|${spec.points}|${spec.durationSeconds}`;
    let limiters = this.#limiters.get(id);
    if (!limiters) {
      // Same prefix whatever the spec: a key whose budget changes keeps its current count.
      const common = { keyPrefix: `${RATE_LIMIT_KEY_PREFIX}:${budget}`, points: spec.points, duration: spec.durationSeconds };
      limiters = {
        store: this.#redis
          ? new RateLimiterRedis({ ...common, storeClient: this.#redis, rejectIfRedisNotReady: true, inMemoryBlockOnConsumed: spec.points + 1 })
          : undefined,
        memory: new RateLimiterMemory(common),
      };
      this.#limiters.set(id, limiters);
    }
    return limiters;
  }

  #storeFailed(error: unknown): void {
    this.#storeRetryAt = performance.now() + this.#storeRetryMs;
    if (!this.#storeFailing) this.#logger.warn({ err: error }, 'rate limits: Redis unavailable, counting in this process until it is back');
    this.#storeFailing = true;
  }

  #storeAnswered(): void {
    if (this.#storeFailing) this.#logger.info('rate limits: Redis is back, counters are shared again');
    this.#storeFailing = false;
  }
}

interface Outcome {
  allowed: boolean;
  result: RateLimiterRes;
}

/** rate-limiter-flexible rejects with a RateLimiterRes when over budget and with an Error on a store fault. */
async function settle(limiter: RateLimiterAbstract, key: string): Promise<Outcome> {
  try {
    return { allowed: true, result: await limiter.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, result: rejection };
    throw rejection;
  }
}

function decision(spec: RateSpec, outcome: Outcome): LimitDecision {
  return {
    allowed: outcome.allowed,
    spec,
    remaining: outcome.allowed ? Math.max(0, outcome.result.remainingPoints) : 0,
    resetMs: Math.max(0, outcome.result.msBeforeNext),
  };
}
