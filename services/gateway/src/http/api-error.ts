import { ERROR_CATALOGUE, statusesOf, type ErrorCode, type ErrorEntry } from '@utility-api/api-errors';
import type { z } from 'zod';

/**
 * The one error type handlers and middleware throw. Everything in it is public: the error
 * middleware sends status, code, message and details to the client verbatim, and anything that is
 * not an ApiError is reported as a generic 500 with no detail. Its status and any fixed
 * Retry-After come from the error catalogue (`@utility-api/api-errors`), never from the thrower.
 */
export interface FieldProblem {
  /** Where the bad value was: `query`, `body`, `path` or `header`. */
  in: 'query' | 'body' | 'path' | 'header';
  /** Dotted path of the field, such as `count` or `rankData.level`. */
  field: string;
  message: string;
}

interface ApiErrorOptions {
  details?: readonly FieldProblem[];
  headers?: Readonly<Record<string, string>>;
  cause?: unknown;
  /** For a code whose Retry-After the catalogue says is computed: the seconds to send (rounded up, at least 1). */
  retryAfterSeconds?: number | undefined;
  /** For the few codes with a second status in the catalogue (`otherStatus`): which one this answer is. */
  status?: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: readonly FieldProblem[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Read by Koa's default handler: our messages are written for clients. */
  readonly expose = true;

  constructor(code: ErrorCode, publicMessage: string, options: ApiErrorOptions = {}) {
    super(publicMessage, options.cause === undefined ? undefined : { cause: options.cause });
    const entry: ErrorEntry = ERROR_CATALOGUE[code];
    if (options.status !== undefined && !statusesOf(code).includes(options.status)) throw new TypeError(`${code} is never a ${options.status}`);
    this.name = 'ApiError';
    this.status = options.status ?? entry.status;
    this.code = code;
    this.details = options.details;
    const retryAfter = typeof entry.retryAfter === 'number' ? entry.retryAfter : entry.retryAfter === 'computed' ? options.retryAfterSeconds : undefined;
    this.headers = retryAfter === undefined ? (options.headers ?? {}) : { ...options.headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) };
  }
}

/** Problems listed in a 400: an array of 10 000 bad elements would otherwise make a ~700 kB body. */
export const MAX_LISTED_PROBLEMS = 20;

export function validationError(problems: readonly FieldProblem[]): ApiError {
  const first = problems[0];
  const summary =
    first === undefined
      ? 'The request is invalid.'
      : `Invalid ${first.in} parameter '${first.field}': ${first.message}` +
        (problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '');
  const unlisted = problems.length - MAX_LISTED_PROBLEMS;
  const details =
    unlisted > 0 && first
      ? [
          ...problems.slice(0, MAX_LISTED_PROBLEMS),
          { in: first.in, field: first.field.split('.')[0] ?? first.field, message: `${unlisted} more problem${unlisted === 1 ? '' : 's'} not listed` },
        ]
      : problems;
  return new ApiError('invalid_request', summary, { details });
}

/** A zod error as the API's field problems, each at `location`. */
export function problemsFromZod(error: z.ZodError, location: FieldProblem['in']): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is a problem with that key, not with the object holding it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ in: location, field: [...path, key].join('.'), message: 'is not a known field' }));
    }
    return [{ in: location, field: path.length > 0 ? path.join('.') : location, message: issue.message }];
  });
}

/** The media store failing while serving or reading a card image (`/media`, or an image answer). */
export function storageUnavailableError(): ApiError {
  return new ApiError('storage_unavailable', 'Image storage is unavailable. Please retry shortly.');
}

/**
 * Signed card links (docs/card-links.md). A link is its own credential, so its refusals say only
 * as much as a wrong key's would: an unknown key id, a malformed link and a wrong signature are one
 * answer (`card_link_invalid`), and only a link that checks out hears that it expired or that its
 * key was revoked.
 */
export function cardLinkInvalidError(): ApiError {
  return new ApiError('card_link_invalid', 'This card link is not valid: it is malformed, names an unknown key, or its signature does not match what it says (a changed character changes the signature).');
}

export function cardLinkExpiredError(expiredAt: number): ApiError {
  return new ApiError('card_link_expired', `This card link expired at ${new Date(expiredAt * 1000).toISOString()}; ask its bot for a new one.`);
}

/** 403, not 401: nothing the fetcher can send (no Authorization header is read) would make the link work again. */
export function cardLinkRevokedError(): ApiError {
  return new ApiError('card_link_revoked', 'The key that signed this card link has been revoked (or rolled past its grace period), so the link no longer works.');
}

/** A card request naming a template its key's account does not have (another account's is never found). */
export function templateNotFoundError(where: FieldProblem['in'], field = 'template'): ApiError {
  return new ApiError('template_not_found', "No such template in this key's account.", { details: [{ in: where, field, message: 'names no template of this account' }] });
}

/** A template of the account named by a card request of the other kind: its design's fields would not fit the card. */
export function templateKindMismatchError(where: FieldProblem['in'], field: string, kind: string, wanted: string): ApiError {
  return new ApiError('template_kind_mismatch', `This template designs a ${kind} card; this request draws a ${wanted} card. Name a template saved with "kind": "${wanted}".`, {
    details: [{ in: where, field, message: `names a ${kind} template, not a ${wanted} one` }],
  });
}

/** An account keeping as many templates as its plan allows. */
export function templateLimitError(limit: number, plan: string): ApiError {
  return new ApiError('template_limit_reached', `This account already keeps ${limit} templates, the most the ${plan} plan allows: delete one (DELETE /v1/templates/{id}) or change one (PUT) instead.`);
}
