import { cardUrl } from './card-links.ts';
import { accentColorFromHeader } from './components-v2.ts';
import type {
  AccountResult, AgeCalculatorQuery, BatchBody, BatchCard, BatchResult, AgeCalculatorResult, CardFormat, CardJson, CardOptions, LeaderboardJson, LeaderboardOptions, CoinFlipQuery, CoinFlipResult, ErrorBody,
  HexToRgbQuery, HexToRgbResult, JsonValidatorBody, JsonValidatorResult, NumberAnalyzerQuery, NumberAnalyzerResult,
  RandomEmojiQuery, RandomEmojiResult, ScrambleQuery, ScrambleResult, SortArrayBody, SortArrayQuery, SortArrayResult,
  StatusBody, StatusResult, Template, TemplateBody, TemplateList, TimeQuery, TimeResult,
} from './types.ts';

export interface RetryOptions {
  /** Tries in all, the first included; 1 turns retrying off. Default 3. */
  attempts?: number;
  /** The most the client sleeps across all retries of one call; a longer `Retry-After` ends the call with the error. Default 30 000. */
  maxTotalWaitMs?: number;
}

export interface ClientOptions {
  /** Where the API is, such as `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /** Sent as the `Authorization` header. */
  apiKey: string;
  retry?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** A card as image bytes, with what the answer's headers say about it. */
export interface CardImage {
  bytes: Uint8Array;
  contentType: string;
  /** From `X-Alt-Text`, decoded: the same text as the JSON answer's `altText`. */
  altText: string;
  /** The card's public URL (`Content-Location`). */
  url: string;
  /** Frames of an animated card (`X-Card-Frames`); undefined for a still one. */
  frames: number | undefined;
  /** The card's accent as Discord's integer colour (`X-Card-Accent`); undefined when the answer has none (a card link's). */
  accentColor: number | undefined;
}

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_MAX_TOTAL_WAIT_MS = 30_000;
/** A 429 or 503 without `Retry-After` (a proxy's) is retried after this. */
const FALLBACK_RETRY_AFTER_MS = 1000;

/** An answer that is not a success, carrying the API's JSON error. */
export class UtilityApiError extends Error {
  override readonly name = 'UtilityApiError';
  readonly status: number;
  /** Such as `invalid_request`, `unauthorized`, `rate_limited`; `http_error` when the body was not the API's JSON. */
  readonly code: string;
  readonly details: NonNullable<ErrorBody['error']['details']>;
  readonly requestId: string | undefined;
  /** Seconds from `Retry-After`, when the answer had it. */
  readonly retryAfter: number | undefined;
  /** How many requests the call made before giving up. */
  readonly attempts: number;

  constructor(status: number, body: ErrorBody | undefined, fallback: { message: string; requestId: string | undefined; retryAfter: number | undefined; attempts: number }) {
    super(body?.error.message ?? fallback.message);
    this.status = status;
    this.code = body?.error.code ?? 'http_error';
    this.details = body?.error.details ?? [];
    this.requestId = body?.requestId ?? fallback.requestId;
    this.retryAfter = fallback.retryAfter;
    this.attempts = fallback.attempts;
  }
}

/** RFC 8187 ext-value (`UTF-8''` then percent-encoded UTF-8), as the gateway sends `X-Alt-Text`. */
export function decodeExtValue(value: string): string {
  const match = /^utf-8'[^']*'(.*)$/is.exec(value);
  return decodeURIComponent(match ? match[1]! : value);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

type Query = Record<string, string | number | boolean | undefined>;

interface Call {
  method: string;
  path?: string;
  /** A whole URL instead of `path` (a card link). */
  url?: string;
  /** Sends no Authorization header (a card link carries its own credential). */
  anonymous?: boolean;
  query?: Query | undefined;
  body?: unknown;
  accept?: string;
  /** Statuses besides 2xx whose JSON is an answer rather than an error (json-validator's 400). */
  answerStatuses?: readonly number[];
}

export class UtilityApiClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #attempts: number;
  readonly #maxTotalWaitMs: number;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#attempts = Math.max(1, Math.floor(options.retry?.attempts ?? DEFAULT_ATTEMPTS));
    this.#maxTotalWaitMs = Math.max(0, options.retry?.maxTotalWaitMs ?? DEFAULT_MAX_TOTAL_WAIT_MS);
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Draws a card; the JSON answer has its public `url` and `altText`. */
  createProfileImage(userId: string, card: CardOptions = {}): Promise<CardJson> {
    return this.#json({ method: 'POST', path: '/v1/profile-image', query: { userId }, body: card });
  }

  /** A leaderboard card (up to 10 rows, and the asking member's own row): its URL and alt text. */
  createLeaderboardImage(board: LeaderboardOptions): Promise<LeaderboardJson> {
    return this.#json({ method: 'POST', path: '/v1/leaderboard-image', body: board });
  }

  /** The same operation with the user id in the path. */
  createProfileImageForUser(userId: string, card: CardOptions = {}): Promise<CardJson> {
    return this.#json({ method: 'POST', path: `/v1/profile-image/${encodeURIComponent(userId)}`, body: card });
  }

  /**
   * Draws a card and answers with the image itself (`Accept: image/<format>`), its alt text decoded.
   * The format is `card.format`, else `image/png`; an animated card is WebP unless `format` says GIF.
   */
  async profileImageBytes(userId: string, card: CardOptions = {}): Promise<CardImage> {
    const format: CardFormat = card.format ?? (card.animated ? 'webp' : 'png');
    const response = await this.#send({ method: 'POST', path: `/v1/profile-image/${encodeURIComponent(userId)}`, body: card, accept: `image/${format}` });
    const frames = response.headers.get('x-card-frames');
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? `image/${format}`,
      altText: decodeExtValue(response.headers.get('x-alt-text') ?? ''),
      url: response.headers.get('content-location') ?? '',
      frames: frames === null ? undefined : Number(frames),
      accentColor: accentColorFromHeader(response.headers.get('x-card-accent')),
    };
  }

  /** Up to 50 cards in one request; each result is the card's JSON answer or its own error, in order. */
  createProfileImageBatch(cards: BatchCard[]): Promise<BatchResult> {
    const body: BatchBody = { cards };
    return this.#json({ method: 'POST', path: '/v1/profile-image/batch', body });
  }

  /**
   * A signed card link for an embed, built here without a request (docs/card-links.md): its first
   * fetch draws the card, later ones are served stored. `expiresAt` makes it answer 410 after.
   */
  cardUrl(userId: string, card: CardOptions = {}, options: { expiresAt?: Date | number } = {}): string {
    return cardUrl({ baseUrl: this.#baseUrl, apiKey: this.#apiKey, userId, card, expiresAt: options.expiresAt });
  }

  /** Fetches a card link (no key is sent: the link is its own credential), as bytes with its alt text. */
  async getCardLink(link: string): Promise<CardImage & { render: string | null; etag: string | null }> {
    const response = await this.#send({ method: 'GET', url: link, accept: 'image/*', anonymous: true });
    const frames = response.headers.get('x-card-frames');
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? '',
      altText: decodeExtValue(response.headers.get('x-alt-text') ?? ''),
      url: response.headers.get('content-location') ?? '',
      frames: frames === null ? undefined : Number(frames),
      accentColor: accentColorFromHeader(response.headers.get('x-card-accent')),
      render: response.headers.get('x-card-render'),
      etag: response.headers.get('etag'),
    };
  }

  /** Saves a card design under a new id of the key's account (409 `template_limit_reached` past the plan's number). */
  createTemplate(body: TemplateBody): Promise<Template> {
    return this.#json({ method: 'POST', path: '/v1/templates', body });
  }

  listTemplates(): Promise<TemplateList> {
    return this.#json({ method: 'GET', path: '/v1/templates' });
  }

  getTemplate(id: string): Promise<Template> {
    return this.#json({ method: 'GET', path: `/v1/templates/${encodeURIComponent(id)}` });
  }

  /** Replaces the whole design (fields left out are gone). */
  updateTemplate(id: string, body: TemplateBody): Promise<Template> {
    return this.#json({ method: 'PUT', path: `/v1/templates/${encodeURIComponent(id)}`, body });
  }

  async deleteTemplate(id: string): Promise<void> {
    const response = await this.#send({ method: 'DELETE', path: `/v1/templates/${encodeURIComponent(id)}` });
    await response.body?.cancel();
  }

  /** Checks that `json` is a JSON object or array (a string is parsed); an invalid one is an answer, not an error. */
  jsonValidator(body: JsonValidatorBody): Promise<JsonValidatorResult> {
    return this.#json({ method: 'POST', path: '/v1/json-validator', body, answerStatuses: [400] });
  }

  randomEmoji(query: RandomEmojiQuery = {}): Promise<RandomEmojiResult> {
    return this.#json({ method: 'GET', path: '/v1/random-emoji', query: { ...query } });
  }

  time(query: TimeQuery = {}): Promise<TimeResult> {
    return this.#json({ method: 'GET', path: '/v1/time', query: { ...query } });
  }

  hexToRgb(query: HexToRgbQuery): Promise<HexToRgbResult> {
    return this.#json({ method: 'GET', path: '/v1/hex-to-rgb', query: { ...query } });
  }

  statusGet(): Promise<StatusResult> {
    return this.#json({ method: 'GET', path: '/v1/status' });
  }

  /** HEAD has no body: resolves with the answer's headers. */
  async statusHead(): Promise<Headers> {
    return (await this.#send({ method: 'HEAD', path: '/v1/status' })).headers;
  }

  statusPost(body: StatusBody = {}): Promise<StatusResult> {
    return this.#json({ method: 'POST', path: '/v1/status', body });
  }

  statusPut(body: StatusBody = {}): Promise<StatusResult> {
    return this.#json({ method: 'PUT', path: '/v1/status', body });
  }

  statusPatch(body: StatusBody = {}): Promise<StatusResult> {
    return this.#json({ method: 'PATCH', path: '/v1/status', body });
  }

  statusDelete(body: StatusBody = {}): Promise<StatusResult> {
    return this.#json({ method: 'DELETE', path: '/v1/status', body });
  }

  statusOptions(): Promise<StatusResult> {
    return this.#json({ method: 'OPTIONS', path: '/v1/status' });
  }

  ageCalculator(query: AgeCalculatorQuery): Promise<AgeCalculatorResult> {
    return this.#json({ method: 'GET', path: '/v1/age-calculator', query: { ...query } });
  }

  coinFlip(query: CoinFlipQuery = {}): Promise<CoinFlipResult> {
    return this.#json({ method: 'GET', path: '/v1/coin-flip', query: { ...query } });
  }

  sortArray(body: SortArrayBody, query: SortArrayQuery = {}): Promise<SortArrayResult> {
    return this.#json({ method: 'POST', path: '/v1/sort-array', query: { ...query }, body });
  }

  scramble(query: ScrambleQuery): Promise<ScrambleResult> {
    return this.#json({ method: 'GET', path: '/v1/scramble', query: { ...query } });
  }

  /** The key's account, plan and this month's quotas, and the key's own usage. */
  getAccount(): Promise<AccountResult> {
    return this.#json({ method: 'GET', path: '/v1/account' });
  }

  numberAnalyzer(query: NumberAnalyzerQuery): Promise<NumberAnalyzerResult> {
    return this.#json({ method: 'GET', path: '/v1/number-analyzer', query: { ...query } });
  }

  async #json<T>(call: Call): Promise<T> {
    const response = await this.#send({ ...call, accept: 'application/json' });
    return (await response.json()) as T;
  }

  /**
   * Sends the call, again after the `Retry-After` of a 429 or 503 while tries and the total wait
   * allow it, and resolves with a successful answer or throws `UtilityApiError`.
   */
  async #send(call: Call): Promise<Response> {
    // A link's query is signed as it is: it goes out untouched, never through searchParams.
    const url = call.url ?? new URL(`${this.#baseUrl}${call.path ?? ''}`);
    if (typeof url !== 'string') for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: call.accept ?? 'application/json' };
    if (!call.anonymous) headers.authorization = this.#apiKey;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let waitedMs = 0;
    for (let attempt = 1; ; attempt++) {
      const response = await this.#fetch(url, { method: call.method, headers, body: call.body === undefined ? null : JSON.stringify(call.body) });
      if (response.ok || call.answerStatuses?.includes(response.status)) return response;
      const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
      if ((response.status === 429 || response.status === 503) && attempt < this.#attempts) {
        const delay = waitMs ?? FALLBACK_RETRY_AFTER_MS;
        if (waitedMs + delay <= this.#maxTotalWaitMs) {
          // The body is dropped unread; cancelling it frees the connection for the retry.
          await response.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, delay));
          waitedMs += delay;
          continue;
        }
      }
      throw await toError(response, attempt, waitMs);
    }
  }
}

async function toError(response: Response, attempts: number, waitMs: number | undefined): Promise<UtilityApiError> {
  const text = await response.text();
  let body: ErrorBody | undefined;
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody> | null;
    if (parsed && typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string') body = parsed as ErrorBody;
  } catch {
    // Not the API's JSON (a proxy's page): the status and its text make the error.
  }
  return new UtilityApiError(response.status, body, {
    message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${text && !body ? `: ${text.slice(0, 200)}` : ''}`,
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfter: waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
    attempts,
  });
}

export function createClient(options: ClientOptions): UtilityApiClient {
  return new UtilityApiClient(options);
}
