import type { Middleware } from 'koa';
import { errorBody } from '../errors/error-body.ts';
import type { GatewayState } from './gateway-state.ts';

/**
 * The router leaves unknown paths as an empty 404 and wrong methods as an empty 405/501 with an
 * `Allow` header; this turns them into the shared JSON error body, keeping `Allow`. An unknown
 * path is a 404 whatever the method.
 */
export function fallbackResponses(): Middleware<GatewayState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    const requestId = ctx.state.requestId;
    const allowed = ctx.response.get('Allow');
    // The router answers a method it does not know (PROPFIND, LOCK) with 501 before looking at the
    // path: with no method allowed there, the path itself is unknown.
    if (ctx.status === 404 || (ctx.status === 501 && allowed === '')) {
      ctx.status = 404;
      ctx.remove('Allow');
      ctx.body = errorBody(404, 'not_found', `No endpoint at ${ctx.path}. See /docs for the list.`, requestId);
    } else if (ctx.status === 405 || ctx.status === 501) {
      ctx.status = 405;
      ctx.set('Allow', allowed);
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${allowed}.`, requestId);
    }
  };
}
