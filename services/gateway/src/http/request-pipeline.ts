import { randomUUID } from 'node:crypto';
import { STATUS_CODES as REASON_PHRASES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CATALOGUE, type ErrorCode } from '@utility-api/api-errors';
import { templateLineWriter, type Logger } from '@utility-api/infra';
import type { Context, Middleware, ParameterizedContext } from 'koa';
import type { Histogram } from 'prom-client';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import type { SignedInSession } from './endpoint.ts';
import { ApiError } from './api-error.ts';
import { errorBody } from './error-body.ts';

/**
 * What middleware leaves on `ctx.state` for later middleware and handlers. The request's logger is
 * made on first use (pino's `child` costs a few microseconds that most requests would pay for
 * nothing) and carries the request id, plus the key id once `authenticate` has set `apiKey`.
 */
export class GatewayState {
  readonly requestId: string;
  /** `performance.now()` at arrival. */
  readonly receivedAt: number;
  apiKey?: ApiKeyIdentity;
  /** Set by a card answer: the stored card's format, for the usage meter. */
  cardFormat?: string;
  /** Set by an endpoint's `admit` (a signed card link): what its handler reads as `request.admitted`. */
  admitted?: unknown;
  /** Set by the session credential of an account-area endpoint: the browser's live session. */
  signedIn?: SignedInSession;
  readonly #root: Logger;
  #log: Logger | undefined;
  #logHasKey = false;

  constructor(root: Logger, requestId: string, receivedAt: number) {
    this.#root = root;
    this.requestId = requestId;
    this.receivedAt = receivedAt;
  }

  get log(): Logger {
    if (this.#log === undefined || (this.apiKey !== undefined && !this.#logHasKey)) {
      this.#log = this.#root.child(this.bindings());
      this.#logHasKey = this.apiKey !== undefined;
    }
    return this.#log;
  }

  bindings(): { requestId: string; keyId?: string } {
    return this.apiKey ? { requestId: this.requestId, keyId: this.apiKey.id } : { requestId: this.requestId };
  }
}

export type GatewayContext = ParameterizedContext<GatewayState>;

/** What runs after a guard step: the next step, or the endpoint itself. */
export type NextStep = (ctx: GatewayContext) => Promise<void>;

/**
 * A check in front of an endpoint (the key, the account, the limits) that hands the context on to
 * `next(ctx)`. As Koa middleware it works as is (Koa's `next` ignores the argument); in front of an
 * endpoint the router links the steps once at startup instead of composing them on every request.
 */
export type GuardStep = (ctx: GatewayContext, next: NextStep) => Promise<void>;

/**
 * API answers are JSON for programs: nothing in them may run, load, be framed or be cached. A
 * browser that opens one directly gets an inert document.
 */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sent only over https (TLS here, or `X-Forwarded-Proto: https` from a trusted proxy): browsers
 * ignore it over http, and a plain-http deployment (loopback, a private network) must not claim it.
 * No `includeSubDomains` or `preload`: the API host may share a parent domain with sites it does
 * not own.
 */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The headers every response starts with; the media and docs routes widen caching and embedding. */
const API_RESPONSE_HEADERS = Object.entries({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
});

/** Headers that describe a representation a route had started to send; they must not outlive it. */
const REPRESENTATION_HEADERS = ['ETag', 'Last-Modified', 'Content-Disposition'] as const;

function setApiResponseHeaders(ctx: Context): void {
  if (ctx.headerSent) return;
  // Straight to node: Koa 3's `set` builds entry arrays on every call, for values that are already strings.
  for (const [name, value] of API_RESPONSE_HEADERS) ctx.res.setHeader(name, value);
  if (ctx.secure) ctx.res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}

/** A caller's own id is kept when it is short and plain, so a bot can correlate its logs with ours. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The one middleware around every route, and the single place a response gets its headers, its
 * error body and its log line:
 * - an id for each request (echoed in `X-Request-Id` and in error bodies; `ctx.state.log` logs under it);
 * - the API's security and caching headers, which routes serving cacheable bytes (media, docs) widen;
 * - errors: an ApiError carries its public text and headers; any other failure is logged with its
 *   stack and answered with a bare 500 naming only the request id. Headers a route set for the
 *   answer it did not finish (an image's caching, its ETag) are dropped and the API defaults put
 *   back, so an error is never cached or embedded like the resource; headers about the error itself
 *   (Allow, Retry-After, RateLimit-*, WWW-Authenticate) stay;
 * - the router's empty 404 and 405/501 become the shared JSON error body, keeping `Allow`;
 * - one access-log line and one latency observation when the response is done, by route template
 *   (never the raw path or query text).
 */
export function requestPipeline(logger: Logger, latency: Histogram<'route' | 'method' | 'status'>): Middleware<GatewayState> {
  const writeAccessLine = templateLineWriter(logger, 'info', 'request');
  const observeLatency = latencyByLabels(latency);
  return async (ctx, next) => {
    const receivedAt = performance.now();
    const offered = ctx.get('x-request-id');
    const requestId = CALLER_REQUEST_ID.test(offered) ? offered : randomUUID();
    const state = new GatewayState(logger, requestId, receivedAt);
    ctx.state = state;
    ctx.res.setHeader('X-Request-Id', requestId);
    setApiResponseHeaders(ctx);
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) answerUnrouted(ctx);
    } catch (error) {
      answerError(ctx, error);
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const ms = performance.now() - receivedAt;
      const { method, status } = ctx;
      observeLatency(route, method, status, ms / 1000);
      if (logger.isLevelEnabled('info')) writeAccessLine(accessLogFields(requestId, state.apiKey?.id, method, route, status, ms));
    }
  };
}

/**
 * The access-log line's fields as pino would serialise `{ requestId, keyId?, method, route, status,
 * ms }` (ms rounded to hundredths): the request id is plain ASCII (CALLER_REQUEST_ID or a UUID);
 * the rest go through JSON.stringify.
 */
function accessLogFields(requestId: string, keyId: string | undefined, method: string, route: string, status: number, ms: number): string {
  const key = keyId === undefined ? '' : `,"keyId":${JSON.stringify(keyId)}`;
  return `,"requestId":"${requestId}"${key},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"ms":${Math.round(ms * 100) / 100}`;
}

/**
 * `latency.observe(labels, seconds)` with each label set's child looked up once: prom-client hashes
 * the label object on every observation otherwise. The label sets are the ones the histogram keeps
 * anyway (route templates, methods Node parses, statuses).
 */
function latencyByLabels(latency: Histogram<'route' | 'method' | 'status'>): (route: string, method: string, status: number, seconds: number) => void {
  const children = new Map<string, { observe(value: number): void }>();
  return (route, method, status, seconds) => {
    const id = `${status} ${method} ${route}`;
    let child = children.get(id);
    if (child === undefined) {
      child = latency.labels({ route, method, status: String(status) });
      children.set(id, child);
    }
    child.observe(seconds);
  };
}

/**
 * The router leaves unknown paths as an empty 404 and wrong methods as an empty 405/501 with an
 * `Allow` header. An unknown path is a 404 whatever the method: the router answers a method it
 * does not know (PROPFIND, LOCK) with 501 before looking at the path, with no method allowed.
 */
function answerUnrouted(ctx: GatewayContext): void {
  const allowed = ctx.response.get('Allow');
  if (ctx.status === 404 || (ctx.status === 501 && allowed === '')) {
    ctx.status = 404;
    ctx.remove('Allow');
    ctx.body = errorBody(404, 'not_found', `No endpoint at ${ctx.path}. See /docs for the list.`, ctx.state.requestId);
  } else if (ctx.status === 405 || ctx.status === 501) {
    ctx.status = 405;
    ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${allowed}.`, ctx.state.requestId);
  }
}

/** Library errors' statuses as catalogue codes; any other 4xx a library throws is answered as a plain 400. */
const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
  408: 'request_timeout', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited',
};

/** Errors from libraries (http-errors, co-body) that are safe to show: a 4xx they marked as exposed. */
function asClientError(error: unknown): ApiError | undefined {
  const candidate = error as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (!candidate || typeof candidate.status !== 'number' || candidate.status < 400 || candidate.status >= 500) return undefined;
  if (candidate.expose !== true) return undefined;
  const message = typeof candidate.message === 'string' ? candidate.message : 'The request could not be processed.';
  return new ApiError(STATUS_CODES[candidate.status] ?? 'bad_request', message, { cause: error });
}

/** The status `answerError` will give an error, for middleware that counts answers before it runs. */
export function statusOfError(error: unknown): number {
  return (error instanceof ApiError ? error : asClientError(error))?.status ?? 500;
}

function answerError(ctx: GatewayContext, error: unknown): void {
  const apiError = error instanceof ApiError ? error : asClientError(error);
  for (const name of REPRESENTATION_HEADERS) ctx.remove(name);
  setApiResponseHeaders(ctx);
  if (!apiError) {
    ctx.state.log.error({ err: error }, 'unhandled error');
    ctx.status = 500;
    ctx.body = errorBody(500, 'internal_error', 'Something went wrong on our side. If it keeps happening, report this request id.', ctx.state.requestId);
    return;
  }
  if (apiError.status >= 500) ctx.state.log.error({ err: error }, apiError.message);
  else ctx.state.log.debug({ code: apiError.code }, apiError.message);
  ctx.status = apiError.status;
  ctx.set(apiError.headers);
  ctx.body = errorBody(apiError.status, apiError.code, apiError.message, ctx.state.requestId, apiError.details);
}

/** What Node itself would answer, by parser error: oversized headers 431, a timed-out request 408, else 400. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [code: ErrorCode, message: string]>> = {
  HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request was not received in time.'],
};
const MALFORMED_REQUEST = ['malformed_request', 'The request is not valid HTTP.'] as const;

/**
 * Requests Node's parser refuses never reach Koa; this gives them the same JSON error body and
 * security headers as every other answer instead of Node's bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
  const status = ERROR_CATALOGUE[code].status;
  const reason = REASON_PHRASES[status] ?? 'Bad Request';
  // The same id and security headers as every other answer, so a refused request can be reported and traced too.
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { status, code, message }, requestId });
  const headers = [...API_RESPONSE_HEADERS, ['X-Request-Id', requestId]].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      headers +
      'Connection: close\r\n\r\n' +
      body,
  );
}
