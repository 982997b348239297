import type { Middleware } from 'koa';
import { errorBody } from '../errors/error-body.ts';
import type { GatewayState } from './gateway-state.ts';

/**
 * The router leaves unknown paths as an empty 404 and wrong methods as an empty 405/501 with an
 * `Allow` header; this turns them into the shared JSON error body, keeping `Allow`.
 */
export function fallbackResponses(): Middleware<GatewayState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    const requestId = ctx.state.requestId;
    if (ctx.status === 404) {
      ctx.status = 404;
      ctx.body = errorBody(404, 'not_found', `No endpoint at ${ctx.path}. See /docs for the list.`, requestId);
    } else if (ctx.status === 405 || ctx.status === 501) {
      const allowed = ctx.response.get('Allow');
      ctx.status = 405;
      ctx.set('Allow', allowed);
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${allowed}.`, requestId);
    }
  };
}
