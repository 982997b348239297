/**
 * Every error code the API answers, once: its HTTP status, its Retry-After rule and a one-line
 * summary. `ApiError` takes its status and fixed Retry-After from here, the render failures their
 * statuses, and the OpenAPI document its error descriptions and the `code` enum, so a code or its
 * status is changed in this table and nowhere else. A leaf: no imports, so the job contract and
 * every service may read it.
 */

/**
 * When an answer carries `Retry-After`: `never`; a fixed number of seconds; or `computed`, when
 * the wait depends on the case (a rate window, a quota's month), written in `retryAfterWhen`.
 */
export type RetryAfterRule = 'never' | number | 'computed';

export interface ErrorEntry {
  /** The HTTP status. */
  readonly status: number;
  /** A second status some answers of this code take, said in `summary` (Discord: 502 or 503). */
  readonly otherStatus?: number;
  readonly retryAfter: RetryAfterRule;
  /** For a computed Retry-After: what the seconds count down to. */
  readonly retryAfterWhen?: string;
  /** One line for the docs: when a client meets this code. The message of each answer says more. */
  readonly summary: string;
}

export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, retryAfter: 'never', summary: 'A field fails its schema or a query parameter is repeated; `details` lists every bad field.' },
  malformed_body: { status: 400, retryAfter: 'never', summary: 'The body is not JSON, or JSON but not an object.' },
  body_too_deep: { status: 400, retryAfter: 'never', summary: 'The JSON body is nested deeper than the gateway reads (the message says how deep).' },
  incomplete_body: { status: 400, retryAfter: 'never', summary: 'The body ended before its declared Content-Length.' },
  malformed_request: { status: 400, retryAfter: 'never', summary: 'The request is not valid HTTP; the connection is closed.' },
  bad_request: { status: 400, retryAfter: 'never', summary: 'The request could not be read (the message says why).' },
  sign_in_link_invalid: { status: 400, retryAfter: 'never', summary: 'Account area: the sign-in link was already used or has expired.' },
  unauthorized: { status: 401, retryAfter: 'never', summary: 'Missing, malformed, unknown or revoked API key (`WWW-Authenticate` says so).' },
  not_signed_in: { status: 401, retryAfter: 'never', summary: 'Account area: no session, or it ended; sign in again.' },
  forbidden: { status: 403, retryAfter: 'never', summary: 'The request is not allowed (the message says why).' },
  key_scope_forbidden: { status: 403, retryAfter: 'never', summary: "The key's scopes do not include this operation's; the message names the scope it needs." },
  card_link_invalid: { status: 403, retryAfter: 'never', summary: 'A signed card link that is malformed, names an unknown key, or whose signature does not match it.' },
  card_link_revoked: { status: 403, retryAfter: 'never', summary: 'The key that signed this card link was revoked.' },
  cross_origin_refused: { status: 403, retryAfter: 'never', summary: 'Account area: a changing request that did not come from the account area itself.' },
  csrf_token_invalid: { status: 403, retryAfter: 'never', summary: 'Account area: the CSRF header is missing or wrong; reload the page.' },
  not_found: { status: 404, retryAfter: 'never', summary: 'No endpoint, file or image at this path (card images expire: request the card again).' },
  key_not_found: { status: 404, retryAfter: 'never', summary: 'Account area: no such key in your account.' },
  unknown_user: { status: 404, retryAfter: 'never', summary: 'Discord has no user with this id (only with a bot token configured).' },
  no_matching_emoji: { status: 404, retryAfter: 'never', summary: 'No emoji matches this combination of filters.' },
  template_not_found: { status: 404, retryAfter: 'never', summary: "No such template in this key's account." },
  method_not_allowed: { status: 405, retryAfter: 'never', summary: 'The path does not serve this method; `Allow` lists those it does.' },
  not_acceptable: { status: 406, retryAfter: 'never', summary: '`Accept` names nothing the operation answers with, or contradicts `format` or `animated`.' },
  request_timeout: { status: 408, retryAfter: 'never', summary: 'The request (headers and body) did not arrive within `REQUEST_TIMEOUT_MS`; the connection is closed.' },
  card_link_expired: { status: 410, retryAfter: 'never', summary: 'The signed card link is past its expiry; ask its bot for a new one.' },
  too_many_keys: { status: 409, retryAfter: 'never', summary: 'Account area: the account already has as many keys as it may; revoke one first.' },
  key_revoked: { status: 409, retryAfter: 'never', summary: 'Account area: a revoked key cannot be rolled; create a new one.' },
  template_limit_reached: { status: 409, retryAfter: 'never', summary: 'The account keeps as many templates as its plan allows; delete or change one.' },
  payload_too_large: { status: 413, retryAfter: 'never', summary: 'The body is larger than the gateway reads, counted once decompressed.' },
  unsupported_media_type: { status: 415, retryAfter: 'never', summary: 'A content type the operation does not read, a charset other than UTF-8, or an unknown Content-Encoding.' },
  template_kind_mismatch: { status: 422, retryAfter: 'never', summary: 'The named template designs the other kind of card (a leaderboard template on a profile card, link or batch item, or the reverse); `details` names the field.' },
  image_unusable: { status: 422, retryAfter: 'never', summary: "An image URL was refused, unreachable, too large (alone or over the card's budgets), not an image or corrupt; `details` names the field." },
  rate_limited: {
    status: 429,
    retryAfter: 'computed',
    retryAfterWhen: "the key's budget frees a request (or the address's wrong-key pause ends)",
    summary: "The key's budget for this operation is used up, or this client address sent too many wrong keys.",
  },
  too_many_cards_in_flight: { status: 429, retryAfter: 1, summary: 'The key already has `CARDS_IN_FLIGHT_PER_KEY` cards in progress across every gateway.' },
  quota_exceeded: {
    status: 429,
    retryAfter: 'computed',
    retryAfterWhen: 'the quota resets, at the start of the next UTC month',
    summary: "The account used up its plan's monthly requests or cards quota; `GET /v1/account` shows both.",
  },
  headers_too_large: { status: 431, retryAfter: 'never', summary: 'The request headers are too large; the connection is closed.' },
  client_closed_request: { status: 499, retryAfter: 'never', summary: 'The client hung up before its card was ready (seen in logs and usage, never by the client).' },
  internal_error: { status: 500, retryAfter: 'never', summary: 'An unexpected failure on our side; the body names only the request id.' },
  discord_unavailable: {
    status: 502,
    otherStatus: 503,
    retryAfter: 'computed',
    retryAfterWhen: "Discord's own rate-limit reset, when it gave one",
    summary: "Discord's API failed (502), or could not be reached or rate limits us (503).",
  },
  queue_unavailable: { status: 503, retryAfter: 1, summary: 'The render queue (Redis) is unavailable.' },
  storage_unavailable: { status: 503, retryAfter: 2, summary: 'Image storage is unavailable.' },
  store_unavailable: { status: 503, retryAfter: 2, summary: 'The account store did not answer in time, or its database file was deleted, replaced or made unwritable (nothing was changed).' },
  render_failed: {
    status: 503,
    retryAfter: 'computed',
    retryAfterWhen: 'an identical request would be drawn again (its failure is remembered for a while)',
    summary: 'The card crashed its render worker or ran over its memory or time budget.',
  },
  overloaded: { status: 503, retryAfter: 1, summary: 'Embedded mode: `RENDER_QUEUE_LIMIT` cards are already waiting or drawing.' },
  render_timeout: { status: 504, retryAfter: 2, summary: 'No renderer finished the card in time; a retry reuses it if it was being drawn.' },
} as const satisfies Readonly<Record<string, ErrorEntry>>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(text: string): text is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, text);
}

export function errorEntry(code: ErrorCode): ErrorEntry {
  return ERROR_CATALOGUE[code];
}

/** The statuses a code may answer with: its own, and the other one a few codes have. */
export function statusesOf(code: ErrorCode): readonly number[] {
  const entry: ErrorEntry = ERROR_CATALOGUE[code];
  return entry.otherStatus === undefined ? [entry.status] : [entry.status, entry.otherStatus];
}

/** The codes answered with this status, in catalogue order. */
export function codesWithStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => statusesOf(code).includes(status));
}

/** The Retry-After rule in words, for the docs. */
export function describeRetryAfter(code: ErrorCode): string {
  const entry: ErrorEntry = ERROR_CATALOGUE[code];
  if (entry.retryAfter === 'never') return 'none';
  if (entry.retryAfter === 'computed') return `seconds until ${entry.retryAfterWhen ?? 'a retry can succeed'}`;
  return `${entry.retryAfter} s`;
}
