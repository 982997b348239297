import {
  CARD_LIMITS,
  DEFAULT_BACKGROUND_BRIGHTNESS,
  CARD_PIXEL_BUDGET,
  MAX_ANIMATION_MS,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_JPEG_SCANS,
  MAX_SOURCE_FRAMES,
  RENDER_RETENTION,
} from '@utility-api/render-jobs';
import { z } from 'zod';
import { defineEndpoint, Reply, type RequestSnapshot, type ResponseDoc } from '../../http/endpoint.ts';
import { systemClock } from '../../runtime/clock.ts';
import { IMAGE_TYPES, negotiateAnswer, queueErrorToApiError, renderFailureToApiError, rfc8187, storedImageReply } from '../card-answers.ts';
import { cardRequestSchemas, resultSchema, type CardEndpointDependencies, type ProfileImageBody } from '../card-request.ts';

const MIB = 1024 * 1024;
const seconds = (ms: number) => `${ms / 1000} s`;
const megabytes = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${Math.round(bytes / 1024)} KiB`);
const megapixels = (pixels: number) => `${pixels / 1_000_000} megapixels`;

/** Embedded mode: the render workers' shared memory, and how many animated cards it lets draw at once. */
function sharedPool({ embedded, renderLimits: { renderPool } }: CardEndpointDependencies): string {
  if (!embedded || renderPool.poolMemoryLimitBytes === undefined) return '';
  const animated = renderPool.animatedAtOnce ?? 1;
  return `; here all workers share ${megabytes(renderPool.poolMemoryLimitBytes)} (\`RENDER_POOL_MEMORY_MB\`) and draw ${animated} animated card${animated === 1 ? '' : 's'} at a time`;
}

const DESCRIPTION = (dependencies: CardEndpointDependencies) =>
  [
    'Draws a 900x300 profile/welcome card (960x540 for `layout: "welcome-tall"`), PNG unless `format` asks for WebP, AVIF or GIF, and answers with its public URL and an `altText` describing it. The user id travels in the query',
    '(`?userId=`) or as the last path segment (`/v1/profile-image/{userId}`); both are the same operation.',
    'With `Accept: image/png` (or `image/webp`, `image/avif`, `image/gif`) the answer is the image itself, with its `Content-Type`,',
    '`Content-Length`, `ETag`, its public URL in `Content-Location` and the alt text in `X-Alt-Text`; an image type in `Accept` without',
    'a `format` field picks that format, one contradicting `format` is a 406, and so is an `Accept` matching nothing offered. Errors are always JSON.',
    'With `animated: true` a card whose avatar, avatar decoration or `customBackground` moves is drawn moving, as animated WebP (GIF with',
    '`format: "gif"`; `png` or `avif` with it is a 400, and an `Accept` naming only them a 406); the answer says `animated` and `frames`, and',
    'when nothing moves it is the still card (PNG unless `format` says otherwise). An animated card takes about 1.2-1.4 s (WebP) or 5 s',
    `(GIF) to draw, within its own budget (\`RENDER_ANIMATED_TIME_BUDGET_MS\`, ${seconds(dependencies.renderLimits.renderPool.animatedTimeBudgetMs)} of CPU time). An animated welcome card, for example:`,
    '`{"animated": true, "layout": "welcome", "message": "You are member #1,234", "customBackground": "<the URL of an animated GIF or WebP>"}`.',
    '`layout` picks the card: `profile` (default), `welcome`, a welcome/goodbye card with a big `headline` and a `message` line, or',
    '`levelup` (an extension), `rankData.previousLevel → rankData.level` large beside the avatar with the name and `message` (`rankData` required;',
    '`previousLevel` defaults to `level − 1`), or `welcome-tall`, the welcome card as a 16:9 image (960x540): a large centred avatar over the',
    '`headline` (the server), the name and `message` (the member number).',
    'Every body field is optional and unknown fields are a 400 naming them. Booleans default to `false`;',
    `\`backgroundBrightness\` defaults to ${DEFAULT_BACKGROUND_BRIGHTNESS}; at most ${CARD_LIMITS.maxCustomBadges} \`customBadges\`;`,
    'image URLs must be http or https and may not point at private or loopback addresses; they are fetched by the renderer with a',
    `${seconds(dependencies.renderLimits.fetch.deadlineMs)} deadline (\`FETCH_TIMEOUT_MS\`), each distinct URL once, at most ${megabytes(dependencies.renderLimits.fetch.maxBytes)} per image and ${megabytes(dependencies.renderLimits.fetch.cardBudgetBytes)} per card (\`FETCH_MAX_BYTES\`,`,
    `\`FETCH_CARD_BUDGET_BYTES\`), and must be PNG, JPEG (at most ${MAX_JPEG_SCANS} scans), GIF or WebP of at most ${megapixels(MAX_IMAGE_PIXELS)}`,
    `and ${MAX_IMAGE_SIDE} px per side, ${megapixels(CARD_PIXEL_BUDGET)} for all images of the card together; metadata (text, ICC, EXIF) is ignored. Over any of`,
    'these is a 422 naming the field. Of an animated GIF, WebP or APNG a still card reads the first frame only; an animated card reads',
    `at most the first ${MAX_SOURCE_FRAMES} frames, then those starting within ${seconds(MAX_ANIMATION_MS)}; later frames are never read, and a frame read that lies`,
    'outside its canvas is a 422 too.',
    `Drawing a card may take ${seconds(dependencies.renderLimits.renderPool.timeBudgetMs)} of CPU time (\`RENDER_TIME_BUDGET_MS\`; a busy machine slows a card`,
    `without failing it, up to a wall-clock backstop of ${dependencies.renderLimits.renderPool.wallClockFactor} times the budget, \`RENDER_WALL_CLOCK_FACTOR\`) and its render worker's memory`,
    `(\`RENDER_WORKER_MEMORY_MB\`, ${megabytes(dependencies.renderLimits.renderPool.memoryLimitBytes)}${sharedPool(dependencies)}):`,
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
          `A key may have at most ${dependencies.cardsInFlightPerKey} cards in progress at once, counted across every gateway and shared with its batches' cards; one more is`,
          "`429 too_many_cards_in_flight` with `Retry-After: 1`. Each card takes one unit of the account's monthly cards quota in the store before it is queued",
          '(given back unless it is answered; a reused render counts), so the cards quota is never exceeded, however many keys and gateways ask: one more is `429 quota_exceeded` with `Retry-After`.',
        ]),
  ].join(' ');

/** The 429 with both of its reasons, when this deployment limits keys (the document's generic 429 otherwise names only the budget). */
function tooManyRequests(dependencies: CardEndpointDependencies): Record<number, ResponseDoc> {
  if (dependencies.cardsInFlightPerKey === undefined) return {};
  return {
    429: {
      codes: ['rate_limited', 'too_many_cards_in_flight', 'quota_exceeded'],
      description: `Here a key may have ${dependencies.cardsInFlightPerKey} cards in progress; a slot frees when one of them is answered. All carry \`Retry-After\`.`,
    },
  };
}

const RESPONSES = (dependencies: CardEndpointDependencies): Record<number, ResponseDoc> => ({
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
      'X-Card-Accent': {
        description:
          "Extension, JSON and image answers: the card's accent colour as `#rrggbb` (lowercase), the colour its avatar ring, border and rank bar are drawn from. A bot tints what surrounds the card with it, such as a Components V2 container's `accent_color` (the integer of these six hex digits); the SDKs' Components V2 helpers do.",
        schema: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
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
  400: { codes: ['invalid_request'], description: 'Here: a bad user id or body field.' },
  404: { codes: ['unknown_user', 'template_not_found'], description: '' },
  406: {
    codes: ['not_acceptable'],
    description:
      'Here `Accept` names none of `application/json`, `image/png`, `image/webp`, `image/avif`, `image/gif`, or names an image type other than the `format` field asks for (`details` then names `format`), or only `image/png` or `image/avif` with `animated: true` (`details` then names `animated`). Checked before anything is drawn.',
  },
  422: { codes: ['image_unusable', 'template_kind_mismatch'], description: '`template_kind_mismatch`: `template` names a leaderboard design.' },
  502: { codes: ['discord_unavailable'], description: '' },
  503: { codes: ['queue_unavailable', 'storage_unavailable', 'render_failed', 'overloaded', 'discord_unavailable', 'store_unavailable'], description: 'Each carries `Retry-After` (Discord only when it gave one); `store_unavailable`: the account store did not take the card unit of the monthly cards quota within 2 s, so no card is drawn uncounted.' },
  504: { codes: ['render_timeout'], description: 'The card is abandoned: withdrawn if it was still queued, finished if it was being drawn (then a retry reuses it).' },
  ...tooManyRequests(dependencies),
});

type ProfileImageResult = z.infer<typeof resultSchema>;

/** Two routes, one operation: `?userId=` as the original service documents, or a path segment. */
export function profileImageEndpoints(dependencies: CardEndpointDependencies) {
  const { userId, body, resolve, checkDiscordIds } = cardRequestSchemas(dependencies.clock ?? systemClock);
  const handleFor = async (userId: string, received: ProfileImageBody, request: RequestSnapshot) => {
    // Already checked as received; with a template, the merged fields are checked again as a whole.
    const body = received.template === undefined ? received : await resolve(dependencies.templates, request.key!.accountId, received, 'body');
    checkDiscordIds(userId, body, 'body');
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
    const headers = {
      'X-Card-Render': reused ? 'reused' : 'new',
      Vary: 'Accept',
      ...(animation && { 'X-Card-Frames': String(animation.frames) }),
      // A header, not a JSON field: the spec's answer keeps its shape (docs/decisions.md).
      ...(result.accentColor !== undefined && { 'X-Card-Accent': result.accentColor }),
    };
    if (answer.kind === 'image') {
      // Content-Location: the URL where this same representation lives (RFC 9110 §8.7).
      const reply = await storedImageReply(dependencies.media, result, { ...headers, 'Content-Location': url, 'X-Alt-Text': rfc8187(result.altText) });
      dependencies.onRendered?.(reused);
      return reply;
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
