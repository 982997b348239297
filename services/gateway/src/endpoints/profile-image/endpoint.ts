import type { IncomingMessage } from 'node:http';
import { DeadlineError } from '@utility-api/infra';
import { MEDIA_FORMATS, StorageUnavailableError, type MediaFormat, type MediaStore } from '@utility-api/media-store';
import accepts from 'accepts';
import {
  ALT_TEXT_MAX_LENGTH,
  CARD_LIMITS,
  cardFormatSchema,
  cardOptionsSchema,
  DEFAULT_BACKGROUND_BRIGHTNESS,
  MAX_SOURCE_FRAMES,
  refuseStillOnlyFormat,
  RENDER_RETENTION,
  refuseFutureSnowflake,
  type RenderFailure,
  snowflakeSchema,
} from '@utility-api/render-jobs';
import { z } from 'zod';
import { ApiError, problemsFromZod, storageUnavailableError, validationError, type FieldProblem } from '../../errors/api-error.ts';
import { RenderQueueUnavailableError, RequestGoneError, type RenderQueue } from '../../rendering/render-queue.ts';
import { systemClock, type Clock } from '../../runtime/clock.ts';
import { applyTemplate, templateReferenceSchema, type TemplateLookup } from '../templates/template-fields.ts';
import { defineEndpoint, Reply, type HeaderValue, type RequestSnapshot, type ResponseDoc } from '../endpoint.ts';

export interface ProfileImageDependencies {
  queue: RenderQueue;
  /** The templates a card request may name (`template`), each account's own. */
  templates: TemplateLookup;
  /** Where the renderers stored the card: an `Accept: image/*` answer carries its bytes. */
  media: MediaStore;
  publicBaseUrl: string;
  renderTimeoutMs: number;
  mediaTtlDays: number;
  /** Card requests one key may have in progress at once; undefined when limits are off (`RATE_LIMITS=off`). */
  cardsInFlightPerKey?: number | undefined;
  /** Told of every successful answer, for metrics. */
  onRendered?: (reused: boolean) => void;
  /** "Now" for refusing ids from the future; the system clock when not given. */
  clock?: Clock;
}

/** The card options plus the format to store the card in, which is not a drawing option. */
const profileImageBodySchema = cardOptionsSchema.extend({ format: cardFormatSchema.optional(), template: templateReferenceSchema.optional() }).superRefine(refuseStillOnlyFormat);

export const resultSchema = z.object({
  success: z.literal(true),
  message: z.literal('Image Created'),
  options: profileImageBodySchema.meta({ description: 'The body options as received (validated), `rankData` included; with `template`, the template\'s fields with the body\'s over them (what was drawn), and `template`.' }),
  url: z.string().meta({ description: 'Public URL of the image: `{PUBLIC_BASE_URL}/media/<uuid>.png` (or `.webp`, `.avif`, `.gif` as `format` asks), fetchable without a key.' }),
  altText: z.string().max(ALT_TEXT_MAX_LENGTH).meta({
    description: `One plain sentence describing the card (layout, name, tag, level, rank, XP, status), at most ${ALT_TEXT_MAX_LENGTH} characters (Discord's limit): pass it as the attachment's \`description\` so screen readers can say what the card shows.`,
    examples: ['Profile card for Ada (@ada.codes): level 12, rank #1, 1.2K of 5K XP, online.'],
  }),
  animated: z.boolean().optional().meta({
    description:
      'Only when the request has `animated: true`: `true` when the card moves (`url` is an animated WebP, or GIF with `format: "gif"`), `false` when nothing on it moves (no moving source, or one whose frames are all the same picture) and `url` is the still card (PNG when `format` was not given, else in `format`).',
  }),
  frames: z.number().int().min(1).optional().meta({
    description:
      'Only when the request has `animated: true`: frames of the stored file (1 when still); the encoder merges a frame identical to the one before, so this can be fewer than the source has. Image answers carry it as `X-Card-Frames`.',
  }),
});

export type ProfileImageBody = z.output<typeof profileImageBodySchema>;

type ProfileImageResult = z.infer<typeof resultSchema>;

const userIdField = snowflakeSchema.meta({ description: 'Discord user id (17 to 20 digits); one whose timestamp lies in the future is a 400.', examples: ['302050872383242240'] });

const JSON_TYPE = 'application/json';
const IMAGE_FORMATS = Object.keys(MEDIA_FORMATS) as MediaFormat[];
const IMAGE_TYPES = IMAGE_FORMATS.map((format) => MEDIA_FORMATS[format]);
/** The types an animated card can be: PNG and AVIF are never animated here, so Accept cannot pick them for one. */
const ANIMATED_IMAGE_TYPES = [MEDIA_FORMATS.webp, MEDIA_FORMATS.gif];
const formatOfType = (type: string) => IMAGE_FORMATS.find((format) => MEDIA_FORMATS[format] === type)!;

/** How the answer is sent: the JSON result (the spec's answer), or the card's bytes in a format. */
type Answer = { kind: 'json' } | { kind: 'image'; format: MediaFormat };

/**
 * Content negotiation over `Accept`, q-values included (the `accepts` negotiator Koa itself uses).
 * JSON is offered first, so no `Accept`, `*\/*` or a tie answers JSON as the spec shows. Without a
 * `format` field, an image type chosen by `Accept` is the format; with one, only that format's
 * type is offered, so an `Accept` naming another image type is a 406 saying so.
 */
function negotiateAnswer(headers: Record<string, HeaderValue>, format: MediaFormat | undefined, animated: boolean): Answer {
  const negotiator = accepts({ headers } as IncomingMessage);
  // The offered type the client prefers, or false when it accepts none of them.
  const best = (offered: string[]) => negotiator.types(offered) as string | false;
  const imageTypes = animated ? ANIMATED_IMAGE_TYPES : IMAGE_TYPES;
  const chosen = best(format === undefined ? [JSON_TYPE, ...imageTypes] : [JSON_TYPE, MEDIA_FORMATS[format]]);
  if (chosen === JSON_TYPE) return { kind: 'json' };
  if (chosen !== false) return { kind: 'image', format: formatOfType(chosen) };
  const asked = best(IMAGE_TYPES);
  if (format !== undefined && asked !== false) {
    throw new ApiError(
      406,
      'not_acceptable',
      `format is ${format} but Accept asks for ${asked}: leave format out (Accept then picks the format) or accept ${MEDIA_FORMATS[format]}.`,
      { details: [{ in: 'body', field: 'format', message: `contradicts Accept (${asked})` }] },
    );
  }
  if (animated && asked !== false) {
    throw new ApiError(406, 'not_acceptable', `animated is true but Accept asks for ${asked}, which cannot move: accept ${ANIMATED_IMAGE_TYPES.join(' or ')} or ${JSON_TYPE}.`, {
      details: [{ in: 'body', field: 'animated', message: `contradicts Accept (${asked})` }],
    });
  }
  throw new ApiError(406, 'not_acceptable', `Accept names nothing this endpoint answers with: ${[JSON_TYPE, ...imageTypes].join(', ')}.`);
}

/**
 * The alt text as an HTTP header: header values are ASCII, so it is sent as an RFC 8187 ext-value
 * (`UTF-8''` and percent-encoded UTF-8, escaping every octet outside attr-char). The renderer's alt
 * text has no lone surrogate, but this must never throw on what it is given (encodeURIComponent
 * throws URIError on one, which was a 500 after the card was drawn): any left is U+FFFD, as UTF-8 has it.
 */
export function rfc8187(text: string): string {
  return `UTF-8''${encodeURIComponent(text.toWellFormed()).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** A failed render as the documented error: the user id is a path field, any other field a body one named first. */
export function renderFailureToApiError(failure: RenderFailure): ApiError {
  const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.ceil(failure.retryAfterSeconds)) };
  if (failure.field === undefined) return new ApiError(failure.status, failure.code, failure.detail, { headers });
  const where = failure.field === 'userId' ? 'path' : 'body';
  const message = where === 'path' ? failure.detail : `${failure.field}: ${failure.detail}`;
  return new ApiError(failure.status, failure.code, message, { headers, details: [{ in: where, field: failure.field, message: failure.detail }] });
}

/**
 * The stored card's bytes, for an image answer. Just rendered or reused from the last minutes, it
 * is in the store (kept for days); storage failing here is the same 503 as failing to store it.
 */
export async function readStoredImage(store: MediaStore, key: string, format: MediaFormat) {
  let opened;
  try {
    opened = await store.open(key, format);
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw storageUnavailableError();
    throw error;
  }
  if (!opened) throw storageUnavailableError();
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
  } catch {
    throw storageUnavailableError();
  }
  return { bytes: Buffer.concat(chunks), contentType: opened.object.contentType, etag: opened.object.etag };
}

/** The queue's thrown outcomes as the documented errors; everything else stays a 500. */
export function queueErrorToApiError(error: unknown, renderTimeoutMs: number): unknown {
  if (error instanceof DeadlineError) {
    return new ApiError(504, 'render_timeout', `The card was not ready within ${renderTimeoutMs} ms. Retry the same request: a card already being drawn is reused; one still queued was withdrawn and queues again behind this key's other cards.`, {
      headers: { 'Retry-After': '2' },
    });
  }
  if (error instanceof RenderQueueUnavailableError) {
    return new ApiError(503, 'queue_unavailable', 'The render queue is unavailable. Please retry shortly.', { headers: { 'Retry-After': '1' } });
  }
  if (error instanceof RequestGoneError) {
    // Nobody reads this answer: the status (nginx's "client closed request") is for the access log.
    return new ApiError(499, 'client_closed_request', 'The client closed the request before the card was ready.');
  }
  return error;
}

const DESCRIPTION = (dependencies: ProfileImageDependencies) =>
  [
    'Draws a 900x300 profile/welcome card, PNG unless `format` asks for WebP, AVIF or GIF, and answers with its public URL and an `altText` describing it. The user id travels in the query',
    '(`?userId=`) or as the last path segment (`/v1/profile-image/{userId}`); both are the same operation.',
    'With `Accept: image/png` (or `image/webp`, `image/avif`, `image/gif`) the answer is the image itself, with its `Content-Type`,',
    '`Content-Length`, `ETag`, its public URL in `Content-Location` and the alt text in `X-Alt-Text`; an image type in `Accept` without',
    'a `format` field picks that format, one contradicting `format` is a 406, and so is an `Accept` matching nothing offered. Errors are always JSON.',
    'With `animated: true` a card whose avatar, avatar decoration or `customBackground` moves is drawn moving, as animated WebP (GIF with',
    '`format: "gif"`; `png` or `avif` with it is a 400, and an `Accept` naming only them a 406); the answer says `animated` and `frames`, and',
    'when nothing moves it is the still card (PNG unless `format` says otherwise). An animated card takes about 1.2-1.4 s (WebP) or 5 s',
    '(GIF) to draw, within its own budget (`RENDER_ANIMATED_TIME_BUDGET_MS`, 18 s of CPU time). An animated welcome card, for example:',
    '`{"animated": true, "layout": "welcome", "message": "You are member #1,234", "customBackground": "https://example.com/sunset.gif"}`.',
    '`layout` picks the card: `profile` (default) or `welcome`, a welcome/goodbye card with a big `headline` and a `message` line.',
    'Every body field is optional and unknown fields are a 400 naming them. Booleans default to `false`;',
    `\`backgroundBrightness\` defaults to ${DEFAULT_BACKGROUND_BRIGHTNESS}; at most ${CARD_LIMITS.maxCustomBadges} \`customBadges\`;`,
    'image URLs must be http or https and may not point at private or loopback addresses; they are fetched by the renderer with a',
    '5 s deadline, each distinct URL once, at most 8 MB per image and 24 MiB per card (by default: `FETCH_MAX_BYTES`,',
    '`FETCH_CARD_BUDGET_BYTES`), and must be PNG, JPEG (at most 100 scans), GIF or WebP of at most 16 megapixels',
    'and 8192 px per side, 40 megapixels for all images of the card together; metadata (text, ICC, EXIF) is ignored. Over any of',
    'these is a 422 naming the field. Of an animated GIF, WebP or APNG a still card reads the first frame only; an animated card reads',
    `at most the first ${MAX_SOURCE_FRAMES} frames, then those starting within 10 s; later frames are never read, and a frame read that lies`,
    'outside its canvas is a 422 too.',
    'Drawing a card may take 5 s of CPU time (`RENDER_TIME_BUDGET_MS`; a busy machine slows a card',
    'without failing it, up to a wall-clock backstop of 4 times the budget, `RENDER_WALL_CLOCK_FACTOR`) and its render worker\'s memory',
    '(`RENDER_WORKER_MEMORY_MB`, 512 MiB; embedded, all workers share 768 MiB and draw one animated card at a time):',
    'a card that crashes its worker or exceeds either is `503 render_failed`, and the same card is refused at once for the next',
    `${RENDER_RETENTION.failedAgeSeconds / 60} minutes: \`Retry-After\` says ${RENDER_RETENTION.failedAgeSeconds} on the failure and what is left of that wait on a refused repeat.`,
    `The answer waits for the render, at most ${dependencies.renderTimeoutMs} ms (then 504). Keys share the renderers fairly: a key's cards queue`,
    "behind its own, and when a render worker frees up, the key with the fewest cards drawing goes next (round robin among equals), so a key",
    'with many slow cards delays another key by at most the cards it is already drawing. A card nobody waits for any more (its deadline passed,',
    'its client hung up) leaves the queue at once; one already being drawn is finished but never retried.',
    `Identical requests (same key, user id and body)`,
    `in progress or finished in the last ${RENDER_RETENTION.completedAgeSeconds / 60} minutes share one render and get the same URL;`,
    'the `X-Card-Render` header says `new` or `reused`. Each format is its own render and URL. The URL names the image by its content, so it never changes meaning and may be',
    `cached forever; the image is kept for ${dependencies.mediaTtlDays} days (\`MEDIA_TTL_DAYS\`).`,
    ...(dependencies.cardsInFlightPerKey === undefined
      ? []
      : [
          `A key may have at most ${dependencies.cardsInFlightPerKey} cards in progress at once, counted across every gateway; one more is`,
          '`429 too_many_cards_in_flight` with `Retry-After: 1`.',
        ]),
  ].join(' ');

/** The 429 with both of its reasons, when this deployment limits keys (the document's generic 429 otherwise names only the budget). */
function tooManyRequests(dependencies: ProfileImageDependencies): Record<number, ResponseDoc> {
  if (dependencies.cardsInFlightPerKey === undefined) return {};
  return {
    429: {
      description:
        "`rate_limited`: the key's profile-image budget is used up, or this client address sent too many wrong keys. " +
        `\`too_many_cards_in_flight\`: the key already has ${dependencies.cardsInFlightPerKey} cards in progress (across every gateway) ` +
        '(`CARDS_IN_FLIGHT_PER_KEY`); a slot frees when one of them is answered. `quota_exceeded`: the account used up its monthly ' +
        'cards or requests quota (the message names which, and when it resets: the next UTC month; `GET /v1/account` shows both). ' +
        'All carry `Retry-After` (1 s for cards in flight, until the month ends for a quota).',
    },
  };
}

const RESPONSES = (dependencies: ProfileImageDependencies): Record<number, ResponseDoc> => ({
  200: {
    description:
      'The card was drawn (or reused) and stored. JSON by default (no `Accept`, `*/*` or `application/json`); the image bytes themselves when `Accept` prefers an image type (q-values respected).',
    schema: resultSchema,
    binaryTypes: IMAGE_TYPES,
    headers: {
      'X-Card-Render': '`new` when this request drew the card, `reused` when an identical request did.',
      Vary: '`Accept`: the same request answers JSON or the image depending on it.',
      'Content-Location': 'Image answers: the public URL of the same image (the JSON answer\'s `url`), fetchable without a key.',
      ETag: 'Image answers: the strong entity tag `/media` serves the same image with.',
      'X-Alt-Text': "Image answers: the JSON answer's `altText` as an RFC 8187 ext-value (`UTF-8''` then percent-encoded UTF-8).",
      'X-Card-Frames': {
        description: 'Only when the request has `animated: true`: the frames of the stored file (the `frames` of the JSON answer), `1` when nothing moved and the answer is the still card.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    example: {
      success: true,
      message: 'Image Created',
      options: { customTag: 'Welcome!', presenceStatus: 'online' },
      url: `${dependencies.publicBaseUrl}/media/8d0f6c3e-2b1a-8c4d-9e7f-0a1b2c3d4e5f.png`,
      altText: 'Profile card for Ada (Welcome!): online.',
    },
  },
  400: { description: 'A bad user id or body field; `details` names each one.' },
  404: { description: '`unknown_user`: Discord has no user with this id (only with a bot token configured).' },
  406: {
    description:
      '`not_acceptable`: `Accept` names none of `application/json`, `image/png`, `image/webp`, `image/avif`, `image/gif`, or names an image type other than the `format` field asks for (`details` then names `format`), or only `image/png` or `image/avif` with `animated: true` (`details` then names `animated`). Checked before anything is drawn.',
  },
  422: { description: "`image_unusable`: an image URL was refused, unreachable, too large (per image or over the card's byte or pixel budget), not an image or corrupt; `details` names the field." },
  502: { description: "`discord_unavailable`: Discord's API failed." },
  503: { description: '`queue_unavailable`, `storage_unavailable`, `render_failed`, `overloaded` (embedded mode: `RENDER_QUEUE_LIMIT` cards already waiting or drawing) or a Discord rate limit; carries `Retry-After`.', retryAfter: true },
  504: { description: "`render_timeout`: no renderer finished in time. The card is abandoned: withdrawn if it was still queued, finished if it was being drawn (then a retry reuses it)." },
  ...tooManyRequests(dependencies),
});

/**
 * The user id and body of a card request as every card route checks them (the POSTs, signed links,
 * batches). Ids from the future are checked here, with the gateway's clock, not by the shared
 * schemas: a renderer re-validating a queued job must not refuse it because its own clock differs.
 */
export function cardRequestSchemas(clock: Clock) {
  const body = profileImageBodySchema.superRefine((options, context) => {
    if (options.guildId !== undefined) refuseFutureSnowflake(options.guildId, clock.now(), context, ['guildId']);
  });
  return {
    userId: userIdField.superRefine((id, context) => refuseFutureSnowflake(id, clock.now(), context)),
    body,
    /**
     * A card request's fields with its `template` resolved (the account's template underneath, the
     * request's own fields over it), checked as a whole: a bad field is a 400 naming it (under
     * `prefix`, `o.` for a link), an unknown template a 404. The answer keeps `template` to say which.
     */
    resolve: async (templates: TemplateLookup, accountId: string, raw: Record<string, unknown>, where: FieldProblem['in'], prefix = ''): Promise<ProfileImageBody> => {
      const merged = await applyTemplate(templates, accountId, raw, where, `${prefix}template`);
      const parsed = body.safeParse(merged.body);
      if (!parsed.success) throw validationError(problemsFromZod(parsed.error, where).map((problem) => ({ ...problem, field: `${prefix}${problem.field === where ? '' : problem.field}`.replace(/\.$/, '') || where })));
      return merged.template ? { ...parsed.data, template: merged.template.id } : parsed.data;
    },
  };
}

/** Two routes, one operation: `?userId=` as the original service documents, or a path segment. */
export function profileImageEndpoints(dependencies: ProfileImageDependencies) {
  const { userId, body, resolve } = cardRequestSchemas(dependencies.clock ?? systemClock);
  const handleFor = async (userId: string, received: ProfileImageBody, request: RequestSnapshot) => {
    // Already checked as received; with a template, the merged fields are checked again as a whole.
    const body = received.template === undefined ? received : await resolve(dependencies.templates, request.key!.accountId, received, 'body');
    const { format: askedFormat, template: _template, ...options } = body;
    // Before rendering: a request that cannot be answered draws nothing.
    const answer = negotiateAnswer(request.headers, askedFormat, options.animated === true);
    const format = answer.kind === 'image' ? answer.format : askedFormat;
    // Shared only with this key's own identical requests (renderJobId).
    const { result, reused } = await dependencies.queue.render({ userId, options, format, requestId: request.requestId }, dependencies.renderTimeoutMs, request.keyId, request.gone).catch((error: unknown) => {
      throw queueErrorToApiError(error, dependencies.renderTimeoutMs);
    });
    if (!result.ok) throw renderFailureToApiError(result.failure);
    const url = `${dependencies.publicBaseUrl}/media/${result.mediaKey}.${result.format}`;
    const { animation } = result;
    const headers = { 'X-Card-Render': reused ? 'reused' : 'new', Vary: 'Accept', ...(animation && { 'X-Card-Frames': String(animation.frames) }) };
    if (answer.kind === 'image') {
      const image = await readStoredImage(dependencies.media, result.mediaKey, result.format);
      dependencies.onRendered?.(reused);
      // Content-Location: the URL where this same representation lives (RFC 9110 §8.7).
      return new Reply<Buffer>(200, image.bytes, { ...headers, 'Content-Type': image.contentType, ETag: image.etag, 'Content-Location': url, 'X-Alt-Text': rfc8187(result.altText) }, result.format);
    }
    dependencies.onRendered?.(reused);
    return new Reply<ProfileImageResult>(200, { success: true, message: 'Image Created', options: body, url, altText: result.altText, ...animation }, headers, result.format);
  };
  const common = {
    methods: ['POST'] as const,
    summary: 'Create a profile card image',
    description: DESCRIPTION(dependencies),
    tags: ['Profile image'],
    authenticated: true,
    scope: 'cards' as const,
    limits: { budget: 'profileImage', holdsCardSlot: true } as const,
    stopsWhenClientLeaves: true,
    body,
    bodyExample: { customTag: 'Welcome!', presenceStatus: 'online', rankData: { currentXp: 1200, requiredXp: 2000, level: 7, rank: 3, barColor: '#5865F2', levelColor: '#FFFFFF', autoColorRank: true } },
    responses: RESPONSES(dependencies),
  };
  return [
    defineEndpoint({
      ...common,
      operationId: 'createProfileImage',
      path: '/v1/profile-image',
      query: z.object({ userId }),
      handle: ({ query, body, request }) => handleFor(query.userId, body, request),
    }),
    defineEndpoint({
      ...common,
      operationId: 'createProfileImageForUser',
      summary: 'Create a profile card image (user id in the path)',
      path: '/v1/profile-image/{userId}',
      params: z.object({ userId }),
      handle: ({ params, body, request }) => handleFor(params.userId, body, request),
    }),
  ];
}
