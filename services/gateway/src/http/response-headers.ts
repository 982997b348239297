import type { Context, Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';

/**
 * API answers are JSON for programs: nothing in them may run, load, be framed or be cached. A
 * browser that opens one directly gets an inert document.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sent only over https (TLS here, or `X-Forwarded-Proto: https` from a trusted proxy): browsers
 * ignore it over http, and a plain-http deployment (loopback, a private network) must not claim it.
 * No `includeSubDomains` or `preload`: the API host may share a parent domain with sites it does
 * not own.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The headers every response starts with; the media and docs routes widen caching and embedding. */
const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Headers that describe a representation a route had started to send; they must not outlive it. */
const REPRESENTATION_HEADERS = ['ETag', 'Last-Modified', 'Content-Disposition'] as const;

const API_RESPONSE_HEADER_ENTRIES = Object.entries(API_RESPONSE_HEADERS);

/** The part of a Koa context these helpers touch. */
type HeaderTarget = Pick<Context, 'remove' | 'secure' | 'res' | 'headerSent'>;

/** Sets the defaults every API response carries (HSTS only when the request came over https). */
export function setApiResponseHeaders(ctx: HeaderTarget): void {
  if (ctx.headerSent) return;
  // Straight to node: Koa 3's `set` builds entry arrays on every call, for values that are already strings.
  for (const [name, value] of API_RESPONSE_HEADER_ENTRIES) ctx.res.setHeader(name, value);
  if (ctx.secure) ctx.res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}

/**
 * For an error answer: drops caching and validators a route set for the body it meant to send (an
 * image's `immutable`, its ETag) and puts the API defaults back, so an error is never cached or
 * embedded like the resource. Headers about the error itself (Allow, Retry-After, RateLimit-*,
 * WWW-Authenticate) are left alone.
 */
export function resetToApiResponseHeaders(ctx: HeaderTarget): void {
  for (const name of REPRESENTATION_HEADERS) ctx.remove(name);
  setApiResponseHeaders(ctx);
}

/** Defaults for every response; routes that serve cacheable bytes (media, docs) override some. */
export function responseHeaders(): Middleware<GatewayState> {
  return (ctx, next) => {
    setApiResponseHeaders(ctx);
    return next();
  };
}
