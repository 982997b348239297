import type { RateSpec } from './rate-spec.ts';

/**
 * Each key has two budgets: `default` for the light endpoints, and a stricter `profileImage` for
 * card renders, which cost a render slot each. A request spends from exactly one of them: the one
 * its endpoint declares (`limits.budget`), `default` otherwise.
 */
export const RATE_BUDGETS = ['default', 'profileImage'] as const;
export type RateBudget = (typeof RATE_BUDGETS)[number];

/** Per-key overrides of the configured budgets; a budget left out uses the configured one. */
export type KeyRateLimits = Partial<Record<RateBudget, RateSpec>>;
