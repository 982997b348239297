import type { Logger } from '@utility-api/infra';
import type { Redis } from 'ioredis';
import { AuthFailureGuard } from './auth-failure-guard.ts';
import { CardsInFlight } from './cards-in-flight.ts';
import type { RateBudget } from './rate-budget.ts';
import { RateCounter } from './rate-counter.ts';
import type { RateSpec } from './rate-spec.ts';
import { RequestLimits } from './request-limits.ts';

export interface RateLimitSettings {
  /** `RATE_LIMITS=off` turns every limit off (benchmarks, private deployments). */
  enabled: boolean;
  budgets: Readonly<Record<RateBudget, RateSpec>>;
  /** Failed authentications allowed per client address. */
  authFailures: RateSpec;
  /** Card requests one key may have in progress at once in one gateway process. */
  cardsInFlightPerKey: number;
}

export interface RateLimits {
  requests: RequestLimits;
  authFailures: AuthFailureGuard;
  /** Per key, in this process: endpoints that declare `holdsCardSlot` take one while they run. */
  cardsInFlight: CardsInFlight;
  /** Whether the counters are shared through Redis or kept in this process. */
  shared: boolean;
}

/** The gateway's limits, counted in Redis when it has one; undefined when they are turned off. */
export function createRateLimits(settings: RateLimitSettings, redis: Redis | undefined, logger: Logger): RateLimits | undefined {
  if (!settings.enabled) return undefined;
  const counter = new RateCounter({ redis, logger });
  return {
    requests: new RequestLimits(counter, settings.budgets),
    authFailures: new AuthFailureGuard(counter, settings.authFailures),
    cardsInFlight: new CardsInFlight(settings.cardsInFlightPerKey),
    shared: counter.shared,
  };
}
