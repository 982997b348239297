import { randomUUID } from 'node:crypto';
import { deferredBindings, deferredChild, type Logger } from '@utility-api/infra';
import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';

/** A caller's own id is kept when it is short and plain, so a bot can correlate its logs with ours. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives each request an id (echoed in `X-Request-Id` and in error bodies) and a child logger
 * bound to it, and writes one access-log line when the response is done.
 *
 * The child logger is deferred: most requests never log through it, and pino's child costs a
 * few microseconds, so it is only made when something does. The access line is written by the
 * root logger with the child's bindings, which is the same line without making the child.
 */
export function requestContext(logger: Logger): Middleware<GatewayState> {
  return async (ctx, next) => {
    const receivedAt = performance.now();
    const offered = ctx.get('x-request-id');
    const requestId = CALLER_REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.receivedAt = receivedAt;
    ctx.state.log = deferredChild(logger, { requestId });
    ctx.res.setHeader('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        // The route template, not the raw path, so logs group by endpoint and never carry query text.
        const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
        const fields = { method: ctx.method, route, status: ctx.status, ms: Number((performance.now() - receivedAt).toFixed(2)) };
        const deferred = deferredBindings(ctx.state.log);
        if (deferred?.root === logger) logger.info({ ...deferred.bindings, ...fields }, 'request');
        else ctx.state.log.info(fields, 'request');
      }
    }
  };
}
