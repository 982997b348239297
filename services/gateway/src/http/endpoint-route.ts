import { HttpMethodEnum, koaBody } from 'koa-body';
import { Reply, type BodyEncoding, type EndpointDefinition, type MalformedBodyKind, type RequestSnapshot, type SignedInSession } from './endpoint.ts';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import { ApiError, problemsFromZod, validationError, type FieldProblem } from './api-error.ts';
import { drainRefusedBody } from './refused-body.ts';
import type { GatewayContext, GuardStep, NextStep } from './request-pipeline.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;
/** Body encodings undone before parsing; the size limit applies to the decoded bytes. */
export const CONTENT_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MEDIA_TYPES: Record<BodyEncoding, readonly string[]> = {
  json: ['application/json', 'application/*+json'],
  form: ['application/x-www-form-urlencoded'],
};

/**
 * Adapts an endpoint definition to Koa: parse and validate the query, path and body with the
 * endpoint's own schemas, call its handler, and write what it returns.
 */
export function endpointRoute(endpoint: EndpointDefinition): NextStep {
  const parseBody = endpoint.body ? bodyParser(endpoint.bodyEncodings ?? ['json'], endpoint.maxBodyBytes ?? MAX_BODY_BYTES) : undefined;
  const queryNames = endpoint.query ? Object.keys(endpoint.query.shape) : [];

  return async (ctx) => {
    if (parseBody) {
      try {
        await parseBody(ctx);
      } catch (error) {
        if (error instanceof MalformedBodyError && endpoint.onMalformedBody) return writeReply(ctx, endpoint.onMalformedBody(error.kind));
        throw error;
      }
    }

    const problems: FieldProblem[] = [];
    let query: Record<string, unknown> = {};
    if (endpoint.query) {
      const single = singleValuedQuery(ctx.querystring, queryNames);
      problems.push(...single.problems);
      const parsed = endpoint.query.safeParse(single.values);
      if (parsed.success) query = parsed.data;
      else {
        // A repeated parameter was left out of the values; its "is required" would only repeat the problem.
        const repeated = new Set(single.problems.map((problem) => problem.field));
        problems.push(...problemsFromZod(parsed.error, 'query').filter((problem) => !repeated.has(problem.field)));
      }
    }
    let params: Record<string, unknown> = {};
    if (endpoint.params) {
      const parsed = endpoint.params.safeParse(ctx.params ?? {});
      if (parsed.success) params = parsed.data;
      else problems.push(...problemsFromZod(parsed.error, 'path'));
    }
    let body: unknown;
    if (endpoint.body) {
      const parsed = endpoint.body.safeParse(ctx.request.body ?? {});
      if (parsed.success) body = parsed.data;
      else problems.push(...problemsFromZod(parsed.error, 'body'));
    }
    if (problems.length > 0) {
      if (!endpoint.onInvalidInput) throw validationError(problems);
      return writeReply(ctx, endpoint.onInvalidInput(problems));
    }

    const request = new RequestView(ctx, endpoint.stopsWhenClientLeaves === true ? clientGoneSignal(ctx) : undefined);
    const pending: unknown = endpoint.handle({ query, body, params, request });
    // Most handlers are synchronous; awaiting their plain value would still cost a microtask turn.
    const result: unknown = pending instanceof Promise ? ((await pending) as unknown) : pending;
    if (result instanceof Reply) writeReply(ctx, result);
    else ctx.body = result;
  };
}

/**
 * Aborts when the response closes before it was written in full: the client hung up (or the
 * connection broke) while the handler was still working for it.
 */
function clientGoneSignal(ctx: GatewayContext): AbortSignal {
  const controller = new AbortController();
  const { res } = ctx;
  if (res.destroyed) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}

/**
 * The credential check of an endpoint with `admit` (signed card links), in place of `authenticate`:
 * an answer given at once ends the request here; an admitted one goes on as its key. Refused links
 * are not counted against the fetching address as wrong keys are: links are fetched by shared
 * proxies (Discord's media proxy fetches every link posted anywhere), and blocking one address for
 * someone's tampered links would break every link behind it. Guessing a 256-bit signature needs no
 * such brake, and refusing one costs a single HMAC.
 */
export function admissionRoute(endpoint: EndpointDefinition & { admit: NonNullable<EndpointDefinition['admit']> }): GuardStep {
  return async (ctx, next) => {
    const admission = await endpoint.admit({ method: ctx.method, query: ctx.querystring, headers: ctx.headers });
    if ('reply' in admission) {
      writeReply(ctx, admission.reply);
      return;
    }
    ctx.state.apiKey = admission.key;
    ctx.state.admitted = admission.admitted;
    await next(ctx);
  };
}

function writeReply(ctx: GatewayContext, reply: Reply<unknown>): void {
  ctx.status = reply.status;
  ctx.set(reply.headers);
  ctx.body = reply.body;
  if (reply.cardFormat !== undefined) ctx.state.cardFormat = reply.cardFormat;
}

/**
 * Repeated query parameters (`?count=1&count=2`) are ambiguous, so a parameter the endpoint reads
 * must appear once. Parameters it does not read are ignored, whatever their form. Only the names
 * the endpoint reads are looked up: Koa's `ctx.query` would decode every parameter into a new
 * object on each request. `URLSearchParams` decodes as `querystring` did (`+` is a space, a bad
 * escape stays as written, bytes that are not UTF-8 become U+FFFD).
 */
function singleValuedQuery(search: string, knownNames: readonly string[]): { values: Record<string, string>; problems: FieldProblem[] } {
  const values: Record<string, string> = {};
  const problems: FieldProblem[] = [];
  if (search === '') return { values, problems };
  const parameters = new URLSearchParams(search);
  for (const name of knownNames) {
    const given = parameters.getAll(name);
    if (given.length > 1) problems.push({ in: 'query', field: name, message: 'must be given only once' });
    else if (given.length === 1) values[name] = given[0]!;
  }
  return { values, problems };
}

/**
 * What a handler may read of the request, each part computed when read: most handlers read none of
 * it, and Koa parses the query and builds the path on every access.
 */
class RequestView implements RequestSnapshot {
  readonly #ctx: GatewayContext;
  readonly method: string;
  readonly receivedAt: number;
  readonly requestId: string;
  readonly key: ApiKeyIdentity | undefined;
  readonly gone: AbortSignal | undefined;
  readonly admitted: unknown;
  readonly signedIn: SignedInSession | undefined;

  constructor(ctx: GatewayContext, gone: AbortSignal | undefined) {
    this.#ctx = ctx;
    this.method = ctx.method;
    this.receivedAt = ctx.state.receivedAt;
    this.requestId = ctx.state.requestId;
    this.key = ctx.state.apiKey;
    this.gone = gone;
    this.admitted = ctx.state.admitted;
    this.signedIn = ctx.state.signedIn;
  }

  get clientAddress(): string {
    return this.#ctx.ip;
  }

  /** Path plus query, also when the request target came in absolute form (`GET http://host/v1/status`). */
  get url(): string {
    return `${this.#ctx.path}${this.#ctx.search}`;
  }

  get path(): string {
    return this.#ctx.path;
  }

  get query(): RequestSnapshot['query'] {
    return this.#ctx.query;
  }

  get headers(): RequestSnapshot['headers'] {
    return this.#ctx.headers;
  }

  get keyId(): string | undefined {
    return this.key?.id;
  }
}

class MalformedBodyError extends ApiError {
  readonly kind: MalformedBodyKind;

  constructor(message: string, kind: MalformedBodyKind = 'not_json') {
    super('malformed_body', message);
    this.kind = kind;
  }
}

/** Whether text is JSON at all (co-body's strict mode refuses JSON that is not an object or array without saying which). */
function parsesAsJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const UTF8_ONLY = 'The body must be UTF-8 text (no charset, or charset=utf-8).';

function unsupportedEncoding(): ApiError {
  return new ApiError('unsupported_media_type', `Send the body with a Content-Encoding of ${CONTENT_ENCODINGS.join(', ')}, or none.`);
}

/** A body limit as people say it: `1 MB`, `4096 bytes`. */
export function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`;
}

/** co-body's failures, by their `type`, as the API's errors. */
function bodyError(error: { status?: number; type?: string; message?: string; body?: unknown }, maxBytes: number): ApiError {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError('payload_too_large', `The request body is larger than ${sizeText(maxBytes)}.`);
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', UTF8_ONLY);
    case 'encoding.unsupported':
      return unsupportedEncoding();
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError('incomplete_body', 'The request body ended before its declared length.');
    default:
      // The decompressor refuses an unknown Content-Encoding with a bare 415 and no type.
      if (error.status === 415) return unsupportedEncoding();
      // co-body parses with @hapi/bourne, which refuses prototype-poisoning keys outright.
      if (error.message?.includes('forbidden prototype property')) {
        return new MalformedBodyError('The JSON body has a "__proto__" key, which is refused.');
      }
      if (parsesAsJson(error.body)) return new MalformedBodyError('The request body must be a JSON object.', 'not_object');
      return new MalformedBodyError('The request body is not valid JSON.');
  }
}

/** Nesting depth of a parsed JSON value (a scalar is 0, `[]` is 1) beyond `maxDepth`, found without recursion. */
function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const containers: object[] = [];
  const depths: number[] = [];
  if (value !== null && typeof value === 'object') {
    containers.push(value);
    depths.push(1);
  }
  while (containers.length > 0) {
    const current = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    // Walked in place (no `Object.values` copy of each container); scalars cannot deepen anything,
    // so only containers are pushed (a 10 000-number array stays cheap). Parsed JSON holds only
    // own, enumerable keys, and `for...in` over it sees exactly those.
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) {
        const child: unknown = current[index];
        if (child !== null && typeof child === 'object') {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = current as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (child !== null && typeof child === 'object') {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/**
 * Reads the body of POST, PUT, PATCH and DELETE requests into `ctx.request.body`, accepting only
 * the listed encodings (anything else is a 415) and rejecting bodies over `maxBytes` (413) or nested
 * deeper than MAX_JSON_DEPTH (400), so no later code walks an unbounded structure.
 * A request with no body leaves `ctx.request.body` undefined.
 */
function bodyParser(encodings: readonly BodyEncoding[], maxBytes: number): (ctx: GatewayContext) => Promise<void> {
  const mediaTypes = encodings.flatMap((encoding) => MEDIA_TYPES[encoding]);
  const parse = koaBody({
    json: encodings.includes('json'),
    urlencoded: encodings.includes('form'),
    text: false,
    multipart: false,
    jsonStrict: true,
    jsonLimit: maxBytes,
    formLimit: maxBytes,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    onError: (error) => {
      throw bodyError(error, maxBytes);
    },
  });
  const done = async () => {};
  return async (ctx) => {
    // `Content-Length: 0` counts as no body, whatever the content type says (or does not say).
    const hasBody = BODY_METHODS.has(ctx.method) && ctx.request.length !== 0;
    const matched = hasBody ? ctx.request.is(mediaTypes) : null;
    if (matched === null) return;
    if (matched === false) {
      throw new ApiError('unsupported_media_type', `Send the body as ${encodings.map((encoding) => MEDIA_TYPES[encoding][0]).join(' or ')}.`);
    }
    // co-body decodes every body as UTF-8 whatever its charset says: a UTF-16 body would be read as garbage.
    const charset = ctx.request.charset;
    if (charset !== '' && !/^utf-?8$/i.test(charset)) throw new ApiError('unsupported_media_type', UTF8_ONLY);
    try {
      await parse(ctx, done);
    } catch (error) {
      // A failed read can leave the rest of the body on the wire (a body over the limit, a compressed
      // body that inflates past it or has a corrupt byte): it is read and discarded, up to a bound,
      // so a client still sending it gets to read the answer; then the connection closes (saying so
      // keeps a keep-alive client from sending its next request into a closing socket).
      if (!ctx.req.complete) {
        await drainRefusedBody(ctx.req);
        ctx.set('Connection', 'close');
      }
      throw error;
    }
    if (exceedsJsonDepth(ctx.request.body, MAX_JSON_DEPTH)) {
      throw new ApiError('body_too_deep', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    }
  };
}
