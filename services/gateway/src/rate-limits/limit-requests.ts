import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { secondsUntilReset } from './limit-decision.ts';
import type { RateBudget } from './rate-budget.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import type { RequestLimits } from './request-limits.ts';

const BUDGET_NAMES: Readonly<Record<RateBudget, string>> = {
  default: 'request',
  profileImage: 'profile-image',
};

/**
 * Spends one request of the authenticated key's budget before the endpoint runs: a 429
 * `rate_limited` with `Retry-After` when it is empty. Runs after `authenticate`.
 */
export function limitRequests(limits: RequestLimits, budget: RateBudget): Middleware<GatewayState> {
  return async (ctx, next) => {
    const key = ctx.state.apiKey;
    if (!key) throw new Error('limitRequests runs after authenticate');
    const decision = await limits.consume(budget, key);
    const headers = rateLimitHeaders(decision);
    ctx.set(headers);
    if (!decision.allowed) {
      const seconds = secondsUntilReset(decision);
      ctx.state.log.info({ budget }, 'rate limited');
      throw new ApiError(
        429,
        'rate_limited',
        `This key's ${BUDGET_NAMES[budget]} budget (${decision.spec.points} per ${decision.spec.durationSeconds} s) is used up; retry in ${seconds} s.`,
        { headers: { ...headers, 'Retry-After': String(seconds) } },
      );
    }
    await next();
  };
}
