import type { RateSpec } from './rate-spec.ts';

/** The outcome of spending one request from a budget, with what the RateLimit-* headers report. */
export interface LimitDecision {
  allowed: boolean;
  spec: RateSpec;
  remaining: number;
  /** Until the window resets and the budget is full again. */
  resetMs: number;
}

/** Whole seconds, rounded up and at least 1, for `Retry-After` and `RateLimit-Reset`. */
export function secondsUntilReset(decision: LimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}
