import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';

/**
 * Defaults for every response; routes that serve cacheable bytes (media, docs) override
 * Cache-Control themselves.
 */
export function responseHeaders(): Middleware<GatewayState> {
  return async (ctx, next) => {
    ctx.set({
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    await next();
  };
}
