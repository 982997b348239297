import type { RateSpec } from './rate-spec.ts';

/**
 * Each key has two budgets: `default` for the light endpoints, and a stricter `profileImage` for
 * card renders, which cost a render slot each. A request spends from exactly one of them.
 */
export const RATE_BUDGETS = ['default', 'profileImage'] as const;
export type RateBudget = (typeof RATE_BUDGETS)[number];

/** Per-key overrides of the configured budgets; a budget left out uses the configured one. */
export type KeyRateLimits = Partial<Record<RateBudget, RateSpec>>;

/** The budget an operation spends from: card renders have their own, everything else shares one. */
export function budgetFor(method: string, path: string): RateBudget {
  return method === 'POST' && (path === '/v1/profile-image' || path.startsWith('/v1/profile-image/')) ? 'profileImage' : 'default';
}
