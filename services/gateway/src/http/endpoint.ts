import type { ErrorCode } from '@utility-api/api-errors';
import type { z } from 'zod';
import type { Session } from '../accounts/account-model.ts';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import type { FieldProblem } from './api-error.ts';
import type { RateBudget } from '../auth/rate-spec.ts';
import type { KeyScope } from './key-scopes.ts';

/**
 * An endpoint is data plus a handler with no HTTP framework in sight: the router turns it into a
 * Koa route, the OpenAPI builder into documentation, and tests call `handle` directly.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export type BodyEncoding = 'json' | 'form';

/** Why a body was refused before validation: `not_json`, it does not parse; `not_object`, it is JSON but a number, string, boolean or null. */
export type MalformedBodyKind = 'not_json' | 'not_object';

export type HeaderValue = string | string[] | undefined;

/** What a handler may know of the request beyond its validated query and body. */
export interface RequestSnapshot {
  method: string;
  /** Path plus query string, as received. */
  url: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, HeaderValue>;
  /** `performance.now()` when the request arrived, for handlers that report their own latency. */
  receivedAt: number;
  /** Also in `X-Request-Id`; handlers pass it on so work done elsewhere logs under the same id. */
  requestId: string;
  /** The id of the API key that authenticated the request (never the key); undefined on public routes. */
  keyId?: string | undefined;
  /** The key's account, name and scopes (never the key); undefined on public routes. */
  key?: ApiKeyIdentity | undefined;
  /**
   * Aborted when the client closes the connection before it has its answer. Only endpoints that
   * set `stopsWhenClientLeaves` get one (watching the socket costs every request a listener).
   */
  gone?: AbortSignal | undefined;
  /** What the endpoint's `admit` handed on (a signed card link's checked card request). */
  admitted?: unknown;
  /** The account area's browser session, on endpoints with a `session` credential (undefined: none, where optional). */
  signedIn?: SignedInSession | undefined;
  /** The client's address (behind a trusted proxy, the one it saw), for limits kept per address. */
  clientAddress: string;
}

/** A live browser session: the stored session and the hash of its cookie, which ends it. */
export interface SignedInSession {
  session: Session;
  idHash: string;
}

/**
 * The account area's credential, in place of an API key: the browser's session cookie. Requests
 * with an unsafe method must also come from the area's own origin, and, with a session, carry its
 * CSRF token (OWASP ASVS: synchronizer token plus origin check).
 */
export interface SessionCredential {
  /** `required`: no live session is `401 not_signed_in`; `optional`: the handler runs with or without one. */
  signedIn: 'required' | 'optional';
  /**
   * For a `/v1` operation run from the area (templates, the playground's preview): the stand-in key
   * identity it runs as, `<idPrefix>_<account id>`. It is no key: no key's usage counts it.
   */
  asKey?: { idPrefix: string; name: string };
}

/**
 * What an endpoint whose credential travels in its URL decides before the key's guards: an answer
 * given at once (a card already stored), or the key the request then runs as, through that key's
 * scope, quota and budgets like any keyed request, with `admitted` for the handler.
 */
export type Admission = { reply: Reply<unknown> } | { key: ApiKeyIdentity; admitted: unknown };

export interface AdmissionRequest {
  /** `GET`, or `HEAD`, which a GET route answers too: an answer given at once may leave its body unread. */
  method: string;
  /** The raw query string, without `?`, exactly as received. */
  query: string;
  headers: Record<string, HeaderValue>;
}

interface EndpointInput<Query, Body, Params = Record<string, never>> {
  query: Query;
  body: Body;
  /** Path parameters, validated by the endpoint's `params` schema. */
  params: Params;
  request: RequestSnapshot;
}

/** A response other than 200, for the endpoints whose contract defines their own error bodies. */
export class Reply<Body> {
  readonly status: number;
  readonly body: Body;
  readonly headers: Readonly<Record<string, string>>;
  /** A card answer's stored format, which the usage meter counts `cards` by. */
  readonly cardFormat: string | undefined;

  constructor(status: number, body: Body, headers: Readonly<Record<string, string>> = {}, cardFormat?: string) {
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.cardFormat = cardFormat;
  }
}

export interface ResponseDoc {
  /** What the answer means; for an error, what to add to its codes' catalogue summaries (may be empty). */
  description: string;
  /** The error codes this answer carries: the docs write each with its catalogue summary, before `description`. */
  codes?: readonly ErrorCode[];
  /** Absent for responses that use the shared error body (or, with `binaryTypes`, answers that are only ever binary). */
  schema?: z.ZodType;
  example?: unknown;
  /** Binary media types the same response may carry instead of JSON, chosen by `Accept`. */
  binaryTypes?: readonly string[];
  /** Response headers worth documenting, by name, with what each says (a string header unless a schema is given). */
  headers?: Readonly<Record<string, string | { description: string; schema: Record<string, unknown> }>>;
  /** Whether this response carries `Retry-After` (every 429 does; one with `codes` carries it when the catalogue says any of them does). */
  retryAfter?: boolean;
}

export interface EndpointLimits {
  /** The rate budget each request spends from; `default` unless named. */
  budget?: RateBudget;
  /** Whether each request holds one of the key's card slots (`CARDS_IN_FLIGHT_PER_KEY`) while it runs. */
  holdsCardSlot?: boolean;
  /** Whether the account's monthly quota never refuses it (it still counts as a request): GET /v1/account, which tells where the quota stands. */
  outsideQuota?: boolean;
}

export interface EndpointDefinition<
  QuerySchema extends z.ZodObject = z.ZodObject,
  BodySchema extends z.ZodType = z.ZodType,
  Result = unknown,
  ParamsSchema extends z.ZodObject = z.ZodObject,
> {
  operationId: string;
  methods: readonly HttpMethod[];
  path: string;
  summary: string;
  /** Markdown for the docs; every "not shown" decision of the spec is written here. */
  description: string;
  tags?: readonly string[];
  /** Path parameters, written `{name}` in `path`. */
  params?: ParamsSchema;
  /** Whether the endpoint needs an API key (the docs and media routes do not). */
  authenticated: boolean;
  /**
   * What the endpoint belongs to, for keys made for part of the API: `cards` or `utility`. A key
   * whose scopes lack it is refused (403); undefined means any key may call it (GET /v1/account).
   */
  scope?: KeyScope;
  /**
   * For an endpoint whose credential is its URL (signed card links) rather than `Authorization`:
   * checks it, throwing the refusal (an ApiError), or admits the request (see Admission). With it,
   * `authenticated` means the key guards run after it, and no Authorization header is read.
   */
  admit?: (request: AdmissionRequest) => Promise<Admission>;
  /** For an account-area endpoint: the browser session stands in for the key (`authenticated` is then false). */
  session?: SessionCredential;
  /** The largest body accepted, in bytes (decoded); MAX_BODY_BYTES unless the endpoint needs far less. */
  maxBodyBytes?: number;
  /** The per-key limits an authenticated endpoint is under; the router applies them, nothing matches paths. */
  limits?: EndpointLimits;
  /** Whether the handler is told (`request.gone`) when its client hangs up, to stop work nobody will read. */
  stopsWhenClientLeaves?: boolean;
  query?: QuerySchema;
  body?: BodySchema;
  /** Body encodings accepted besides none at all; JSON unless stated. */
  bodyEncodings?: readonly BodyEncoding[];
  bodyExample?: unknown;
  /** Answers a body that is not valid JSON, or JSON but not an object; by default the shared 400 `malformed_body` error. */
  onMalformedBody?: (kind: MalformedBodyKind) => Reply<unknown>;
  /** Answers a query or body that fails its schema; by default the shared 400 `invalid_request`. */
  onInvalidInput?: (problems: readonly FieldProblem[]) => Reply<unknown>;
  responses: Record<number, ResponseDoc>;
  handle(
    input: EndpointInput<z.output<QuerySchema>, z.output<BodySchema>, z.output<ParamsSchema>>,
  ): Result | Reply<unknown> | Promise<Result | Reply<unknown>>;
}

/** Keeps each endpoint's generic parameters while the router holds them in one list. */
export function defineEndpoint<
  QuerySchema extends z.ZodObject,
  BodySchema extends z.ZodType,
  Result,
  ParamsSchema extends z.ZodObject = z.ZodObject,
>(definition: EndpointDefinition<QuerySchema, BodySchema, Result, ParamsSchema>): EndpointDefinition {
  return definition;
}

/** `/v1/things/{id}` in OpenAPI style becomes `/v1/things/:id` for the router. */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
