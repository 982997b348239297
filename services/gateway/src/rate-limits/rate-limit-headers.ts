import { secondsUntilReset, type LimitDecision } from './limit-decision.ts';

/**
 * The `RateLimit-*` fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers, in its widely
 * implemented form with three fields), plus `RateLimit-Policy` naming the window. Sent on every
 * response of an authenticated endpoint, successful or not.
 */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.spec.points),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(secondsUntilReset(decision)),
    'RateLimit-Policy': `${decision.spec.points};w=${decision.spec.durationSeconds}`,
  };
}
