import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { type Logger, withDeadline } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../config.ts';
import type { EndpointLimits } from '../http/endpoint.ts';
import { ApiError } from '../http/api-error.ts';
import type { GuardStep } from '../http/request-pipeline.ts';
import type { ApiKeyIdentity } from './api-keys.ts';
import type { RateBudget, RateSpec } from './rate-spec.ts';

/** `RATE_LIMITS` (off: no limit at all), the two budgets, auth failures per address, card slots per key. */
export type RateLimitSettings = GatewayConfig['rateLimits'];

/** Redis keys of the counters start with this; rate-limiter-flexible appends `:<budget>:<key>`. */
const RATE_LIMIT_KEY_PREFIX = 'utility-api:ratelimit';
/**
 * A limit check must not slow the light endpoints down when Redis is slow: past this the request
 * is counted in memory instead, and Redis is left alone for STORE_RETRY_MS.
 */
export const STORE_TIMEOUT_MS = 200;
const STORE_RETRY_MS = 1000;
/**
 * A key's cards in progress across every gateway: a sorted set per key in Redis whose members are
 * slots and whose scores are when each slot lapses by itself (a gateway that died holding slots
 * frees them then). Takes a slot unless the key already holds `cap` live ones. Lapsed slots are
 * pruned only when the count reaches the cap, the one time they could change the answer: every
 * other card pays one command fewer.
 */
const TAKE_CARD_SLOT_SCRIPT = `
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;
const CARD_SLOTS_KEY_PREFIX = 'utility-api:cards-in-flight';
type CardSlotCommands = { takeCardSlot(key: string, now: number, cap: number, lapsesAt: number, slot: string, ttlMs: number): Promise<number> };

/** Addresses remembered as blocked; past this the expired ones, then the oldest, are dropped. */
const MAX_BLOCKED_ADDRESSES = 10_000;
const BUDGET_NAMES: Readonly<Record<RateBudget, string>> = { default: 'request', profileImage: 'profile-image', preview: 'playground preview' };

/** One budget's counters: shared in Redis when there is one, and this process's own for when Redis is away. */
interface BudgetLimiters {
  store: RateLimiterRedis | undefined;
  memory: RateLimiterMemory;
}

interface SpecCounters {
  limiters: BudgetLimiters;
  /** `RateLimit-Limit` and `RateLimit-Policy`, which depend on the spec alone. */
  limit: string;
  policy: string;
}

/** The outcome of spending one request from a budget; `resetMs` is until the budget is full again. */
interface LimitDecision {
  allowed: boolean;
  remaining: number;
  resetMs: number;
}

/** Whole seconds, rounded up and at least 1, for `Retry-After` and `RateLimit-Reset`. */
const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The gateway's limits: each key's request budgets, its card slots, and failed authentications per
 * client address. Budgets are fixed-window counters from rate-limiter-flexible: in Redis when the
 * gateway has one (one EVALSHA per request, and a key over its budget is then refused from memory
 * until its window ends), in process memory otherwise.
 *
 * Fail-open when Redis is down or slow: the request is counted by an in-memory limiter with the
 * same budget instead, so each gateway still enforces the budget on its own (a caller may get up
 * to N times the budget across N gateways during the outage) and no request waits on Redis.
 * Card renders fail with 503 while Redis is down anyway; the light endpoints keep serving.
 */
export class RateLimits {
  readonly #settings: RateLimitSettings;
  readonly #redis: RedisClient | undefined;
  readonly #logger: Logger;
  readonly #limiters = new Map<string, BudgetLimiters>();
  readonly #cardsInFlight = new Map<string, number>();
  readonly #blockedUntil = new Map<string, number>();
  readonly #cardSlotTtlMs: number;
  #storeRetryAt = 0;
  #storeFailing = false;

  /** `cardSlotTtlMs`: the longest a card request can hold its slot (it lapses by itself then). */
  constructor(settings: RateLimitSettings, redis: RedisClient | undefined, logger: Logger, cardSlotTtlMs = 10 * 60_000) {
    this.#settings = settings;
    this.#redis = redis;
    this.#logger = logger;
    this.#cardSlotTtlMs = cardSlotTtlMs;
    redis?.defineCommand('takeCardSlot', { numberOfKeys: 1, lua: TAKE_CARD_SLOT_SCRIPT });
  }

  /** Whether the counters are shared through Redis or kept in this process. */
  get shared(): boolean {
    return this.#redis !== undefined;
  }

  /**
   * The middleware of an authenticated endpoint, run after `authenticate`: spends one request of
   * the key's budget (a 429 `rate_limited` with `Retry-After` when it is empty) and sets the
   * `RateLimit-*` headers, which stay on whatever the request ends as. The rate budget bounds how
   * many cards a key may ask for per window; the card slots (`takeCardSlot`, taken by the card
   * admission for each card) how many it can hold open at once.
   */
  middleware(limits: EndpointLimits = {}): GuardStep {
    const budget = limits.budget ?? 'default';
    // Per spec (the plan's budget, or a key's own), its counters and its fixed header values, found
    // once instead of rebuilt from strings on every request.
    const bySpec = new WeakMap<RateSpec, SpecCounters>();
    const countersOf = (spec: RateSpec): SpecCounters => {
      let counters = bySpec.get(spec);
      if (counters === undefined) {
        counters = { limiters: this.#limitersFor(budget, spec), limit: String(spec.points), policy: `${spec.points};w=${spec.durationSeconds}` };
        bySpec.set(spec, counters);
      }
      return counters;
    };
    return async (ctx, next) => {
      const key = ctx.state.apiKey!;
      const spec = key.limits?.[budget] ?? this.#settings.budgets[budget];
      const counters = countersOf(spec);
      const decision = await this.#consumeFrom(counters.limiters, key.id);
      const reset = String(secondsUntil(decision.resetMs));
      // Straight to node: Koa's `set` builds entry arrays for values that are already strings.
      ctx.res.setHeader('RateLimit-Limit', counters.limit);
      ctx.res.setHeader('RateLimit-Remaining', String(decision.remaining));
      ctx.res.setHeader('RateLimit-Reset', reset);
      ctx.res.setHeader('RateLimit-Policy', counters.policy);
      if (!decision.allowed) {
        ctx.state.log.info({ budget }, 'rate limited');
        const message = `This key's ${BUDGET_NAMES[budget]} budget (${spec.points} per ${spec.durationSeconds} s) is used up; retry in ${reset} s.`;
        throw new ApiError('rate_limited', message, { retryAfterSeconds: Number(reset) });
      }
      return next(ctx);
    };
  }

  /**
   * Spends one more request of the key's budget beyond the one its request spent at the door (a
   * batch's cards after its first): undefined when allowed, else the 429 that card answers.
   */
  async spend(key: ApiKeyIdentity, budget: RateBudget): Promise<ApiError | undefined> {
    const spec = key.limits?.[budget] ?? this.#settings.budgets[budget];
    const decision = await this.#consume(budget, key.id, spec);
    if (decision.allowed) return undefined;
    const reset = String(secondsUntil(decision.resetMs));
    return new ApiError('rate_limited', `This key's ${BUDGET_NAMES[budget]} budget (${spec.points} per ${spec.durationSeconds} s) is used up; retry in ${reset} s.`, { retryAfterSeconds: Number(reset) });
  }

  /**
   * One of the key's card slots (`CARDS_IN_FLIGHT_PER_KEY`), across every gateway when there is
   * Redis (in this process while Redis is unavailable, as for the budgets): the function that
   * gives it back, or undefined when the key holds all of them already.
   */
  async takeCardSlot(keyId: string): Promise<(() => void) | undefined> {
    const cap = this.#settings.cardsInFlightPerKey;
    const redis = this.#redis as (RedisClient & CardSlotCommands) | undefined;
    if (redis && performance.now() >= this.#storeRetryAt) {
      const key = `${CARD_SLOTS_KEY_PREFIX}:${keyId}`;
      // Random, not the request id: a caller chooses its X-Request-Id and could reuse one.
      const slot = randomUUID();
      const now = Date.now();
      try {
        const taken = await withDeadline(redis.takeCardSlot(key, now, cap, now + this.#cardSlotTtlMs, slot, this.#cardSlotTtlMs), STORE_TIMEOUT_MS, 'card slot store');
        this.#storeFailing = false;
        if (taken !== 1) return undefined;
        return () => void redis.zrem(key, slot).catch((error: unknown) => this.#logger.debug({ err: error }, 'could not give back a card slot; it lapses by itself'));
      } catch (error) {
        this.#storeRetryAt = performance.now() + STORE_RETRY_MS;
        if (!this.#storeFailing) this.#logger.warn({ err: error }, 'rate limits: Redis unavailable, counting in this process until it is back');
        this.#storeFailing = true;
      }
    }
    const held = this.#cardsInFlight.get(keyId) ?? 0;
    if (held >= cap) return undefined;
    this.#cardsInFlight.set(keyId, held + 1);
    return () => {
      const left = (this.#cardsInFlight.get(keyId) ?? 1) - 1;
      if (left === 0) this.#cardsInFlight.delete(keyId);
      else this.#cardsInFlight.set(keyId, left);
    };
  }

  /**
   * Failed authentications per client address (guessing keys): milliseconds the address must
   * still wait, 0 when it may try. Once an address is over its budget this gateway refuses it from
   * memory, before looking at any key, until the window ends; another gateway learns it on that
   * address's next failure there.
   */
  /** Whether any address is refused now or was until lately: only then is a request's address worth working out. */
  get blocksAnyAddress(): boolean {
    return this.#blockedUntil.size > 0;
  }

  authBlockedFor(address: string): number {
    const until = this.#blockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.#blockedUntil.delete(address);
    return 0;
  }

  /** Counts a failed authentication; the milliseconds to wait when it was one too many, else 0. */
  async recordAuthFailure(address: string): Promise<number> {
    const decision = await this.#consume('auth-failures', address, this.#settings.authFailures);
    if (decision.allowed) return 0;
    if (this.#blockedUntil.size >= MAX_BLOCKED_ADDRESSES) {
      const now = Date.now();
      for (const [blocked, until] of this.#blockedUntil) if (until <= now) this.#blockedUntil.delete(blocked);
      for (const blocked of this.#blockedUntil.keys()) {
        if (this.#blockedUntil.size < MAX_BLOCKED_ADDRESSES) break;
        this.#blockedUntil.delete(blocked);
      }
    }
    this.#blockedUntil.delete(address);
    this.#blockedUntil.set(address, Date.now() + decision.resetMs);
    return decision.resetMs;
  }

  /** Spends one request of `key` from the counter named `budget`, allowed `spec`. */
  #consume(budget: string, key: string, spec: RateSpec): Promise<LimitDecision> {
    return this.#consumeFrom(this.#limitersFor(budget, spec), key);
  }

  async #consumeFrom(limiters: BudgetLimiters, key: string): Promise<LimitDecision> {
    if (limiters.store && performance.now() >= this.#storeRetryAt) {
      try {
        const decision = await withDeadline(settle(limiters.store, key), STORE_TIMEOUT_MS, 'rate limit store');
        if (this.#storeFailing) this.#logger.info('rate limits: Redis is back, counters are shared again');
        this.#storeFailing = false;
        return decision;
      } catch (error) {
        this.#storeRetryAt = performance.now() + STORE_RETRY_MS;
        if (!this.#storeFailing) this.#logger.warn({ err: error }, 'rate limits: Redis unavailable, counting in this process until it is back');
        this.#storeFailing = true;
      }
    }
    return settle(limiters.memory, key);
  }

  #limitersFor(budget: string, spec: RateSpec): BudgetLimiters {
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
}

/** rate-limiter-flexible rejects with a RateLimiterRes when over budget and with an Error on a store fault. */
async function settle(limiter: RateLimiterAbstract, key: string): Promise<LimitDecision> {
  let allowed = true;
  let result: RateLimiterRes;
  try {
    result = await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    allowed = false;
    result = rejection;
  }
  return { allowed, remaining: allowed ? Math.max(0, result.remainingPoints) : 0, resetMs: Math.max(0, result.msBeforeNext) };
}

/**
 * What auth failures are counted by: the IPv4 address, or the /64 network of an IPv6 address
 * (one host usually holds a whole /64, so counting single addresses would be no limit at all).
 * IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address || 'unknown';
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const parts = (text: string) => (text === '' ? [] : text.split(':').flatMap(embeddedIpv4));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`;
}

/** `1.2.3.4` at the end of an IPv6 address is its last two groups. */
function embeddedIpv4(part: string): string[] {
  if (!part.includes('.')) return [part];
  const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
