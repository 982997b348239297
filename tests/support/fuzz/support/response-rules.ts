import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../../../services/gateway/src/docs/docs-site.ts';
import type { OpenApiContract } from '../../../helpers/openapi-contract.ts';
import type { RawRequest, RawResponse } from './raw-http.ts';

/** Written out rather than imported, so a changed constant in the gateway fails these tests. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const API_CACHE = 'no-store';
export const MEDIA_CACHE = 'public, max-age=31536000, immutable';
export const DOCS_CACHE = 'public, max-age=300';

/**
 * What a route serves when it succeeds: API JSON, a card image, the HTML reference or the OpenAPI
 * document. Any error answer is API JSON, whatever the route.
 */
export type RouteKind = 'api' | 'media' | 'docs' | 'openapi';

export interface Expectation {
  kind: RouteKind;
  /** The documented operation the request targets; absent for unknown paths and wrong methods. */
  operation?: { path: string; method: string };
  /** Statuses the request may get. 429 is always tolerated: rate limits may be configured. */
  statuses: readonly number[];
}

type Headers = RawResponse['headers'];

const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const KIND_HEADERS: Readonly<Record<RouteKind, Readonly<Record<string, string>>>> = {
  api: { 'cache-control': API_CACHE, 'content-security-policy': API_CSP, 'cross-origin-resource-policy': 'same-origin' },
  media: { 'cache-control': MEDIA_CACHE, 'content-security-policy': API_CSP, 'cross-origin-resource-policy': 'cross-origin' },
  docs: { 'cache-control': DOCS_CACHE, 'content-security-policy': DOCS_CONTENT_SECURITY_POLICY, 'cross-origin-resource-policy': 'same-origin' },
  openapi: { 'cache-control': DOCS_CACHE, 'content-security-policy': API_CSP, 'cross-origin-resource-policy': 'same-origin' },
};

/** The kind whose headers a response must carry: errors are API answers on every route. */
export function effectiveKind(kind: RouteKind, status: number): RouteKind {
  return status >= 400 ? 'api' : kind;
}

/** Problems with the security headers of a response served over plain http. */
export function securityHeaderProblems(kind: RouteKind, status: number, headers: Headers): string[] {
  const expected = { ...COMMON_HEADERS, ...KIND_HEADERS[effectiveKind(kind, status)] };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(expected)) {
    if (headers[name] !== value) problems.push(`header ${name} is ${JSON.stringify(headers[name])}, expected ${JSON.stringify(value)}`);
  }
  if (!headers['x-request-id']) problems.push('no X-Request-Id header');
  if (headers['strict-transport-security'] !== undefined) problems.push('HSTS sent over plain http');
  if (headers['x-powered-by'] !== undefined) problems.push('X-Powered-By is sent');
  return problems;
}

/** Responses that carry no body by definition. */
function bodiless(request: RawRequest, status: number): boolean {
  return request.method === 'HEAD' || status === 204 || status === 304 || (request.method === 'OPTIONS' && status === 200);
}

/**
 * Checks one response against the properties every fuzz test holds the gateway to: never a 5xx, a
 * status the request may get, the security headers of its route, and a JSON body that matches the
 * OpenAPI document (the operation's schema, or the shared error schema where nothing is documented).
 */
export class ResponseRules {
  readonly #contract: OpenApiContract;
  readonly #errorSchema: ReturnType<Ajv2020['compile']>;

  constructor(contract: OpenApiContract) {
    this.#contract = contract;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    this.#errorSchema = ajv.compile(contract.document.components.schemas.Error as object);
  }

  problems(request: RawRequest, response: RawResponse, expectation: Expectation): string[] {
    const { status, headers } = response;
    const problems: string[] = [];
    if (status >= 500) problems.push(`server error ${status}`);
    else if (!expectation.statuses.includes(status) && status !== 429) {
      problems.push(`status ${status} is not one of ${expectation.statuses.join(', ')}`);
    }
    problems.push(...securityHeaderProblems(expectation.kind, status, headers));
    const kind = effectiveKind(expectation.kind, status);
    if (bodiless(request, status)) {
      if (request.method === 'HEAD' && response.body.length > 0) problems.push('a HEAD answer has a body');
      return problems;
    }
    if (kind === 'media') {
      if (headers['content-type'] !== 'image/png') problems.push(`media served as ${headers['content-type']}`);
      return problems;
    }
    if (kind === 'docs') {
      if (!/^text\/html\b/.test(headers['content-type'] ?? '')) problems.push(`docs served as ${headers['content-type']}`);
      return problems;
    }
    if (!/^application\/json\b/.test(headers['content-type'] ?? '')) {
      problems.push(`answer is ${headers['content-type'] ?? 'untyped'}, not JSON`);
      return problems;
    }
    let body: unknown;
    try {
      body = JSON.parse(decoded(response.body, headers['content-encoding']).toString('utf8'));
    } catch {
      problems.push(`the body is not valid JSON (Content-Encoding ${headers['content-encoding'] ?? 'none'})`);
      return problems;
    }
    if (kind === 'openapi') return problems;
    problems.push(...this.#contractProblems(expectation, status, body, headers));
    return problems;
  }

  #contractProblems(expectation: Expectation, status: number, body: unknown, headers: Headers): string[] {
    const { operation } = expectation;
    if (operation && this.#contract.responseSchema(operation.path, operation.method, status)) {
      return this.#contract.check(operation.path, operation.method, status, body).map((problem) => `contract: ${problem}`);
    }
    const problems: string[] = [];
    // Only the rate limiter (added separately) answers a documented operation with an undocumented status.
    if (operation && status !== 429) problems.push(`${operation.method} ${operation.path} does not document ${status}`);
    if (!this.#errorSchema(body)) {
      problems.push(...(this.#errorSchema.errors ?? []).map((error) => `error schema: ${error.instancePath || '(root)'} ${error.message ?? ''}`));
      return problems;
    }
    const error = body as { error: { status: number }; requestId: string };
    if (error.error.status !== status) problems.push(`error.status ${error.error.status} differs from ${status}`);
    if (error.requestId !== headers['x-request-id']) problems.push('requestId differs from X-Request-Id');
    return problems;
  }
}

/** A readable account of a failing exchange, for the property's error message. */
export function describeExchange(request: RawRequest, response: RawResponse, problems: readonly string[]): string {
  const body = response.body.toString('utf8');
  const requestBody = request.body === undefined ? '' : String(request.body);
  return [
    `${request.method} ${request.path.length > 300 ? `${request.path.slice(0, 300)}...` : request.path} -> ${response.status}`,
    `request headers: ${JSON.stringify(request.headers ?? {}).slice(0, 500)}`,
    ...(requestBody === '' ? [] : [`request body: ${requestBody.slice(0, 500)}${requestBody.length > 500 ? '...' : ''}`]),
    `response headers: ${JSON.stringify(response.headers)}`,
    `response body: ${body.slice(0, 800)}`,
    ...problems.map((problem) => `- ${problem}`),
  ].join('\n');
}

/** The body as sent before its Content-Encoding (a client that accepts `*` may get any of them). */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  return body;
}
