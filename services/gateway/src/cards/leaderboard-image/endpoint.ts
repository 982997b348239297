import { ALT_TEXT_MAX_LENGTH, cardFormatSchema, LEADERBOARD_LIMITS, leaderboardOptionsSchema, RENDER_RETENTION } from '@utility-api/render-jobs';
import { z } from 'zod';
import { IMAGE_TYPES, negotiateAnswer, queueErrorToApiError, renderFailureToApiError, rfc8187, storedImageReply } from '../card-answers.ts';
import { problemsFromZod, validationError } from '../../http/api-error.ts';
import { defineEndpoint, Reply, type RequestSnapshot, type ResponseDoc } from '../../http/endpoint.ts';
import type { CardEndpointDependencies } from '../card-request.ts';
import { applyTemplate, templateReferenceSchema } from '../templates/template-fields.ts';

/** The same queue, store, deadline and per-key card slots as profile cards: a leaderboard is one more card. */
export type LeaderboardImageDependencies = CardEndpointDependencies;

/** The board plus the format to store it in, which is not a drawing option, and the leaderboard template it starts from. */
const leaderboardBodySchema = leaderboardOptionsSchema.safeExtend({ format: cardFormatSchema.optional(), template: templateReferenceSchema.optional() });
type LeaderboardBody = z.output<typeof leaderboardBodySchema>;

/**
 * The board with its `template` resolved: the account's leaderboard design underneath, the request's
 * own fields over it, checked again as a whole (a bad merged field is a 400 naming it). The answer
 * keeps `template` to say which design was drawn.
 */
async function withTemplate(dependencies: LeaderboardImageDependencies, received: LeaderboardBody, request: RequestSnapshot): Promise<LeaderboardBody> {
  if (received.template === undefined) return received;
  const merged = await applyTemplate(dependencies.templates, request.key!.accountId, 'leaderboard', received, 'body');
  const parsed = leaderboardBodySchema.safeParse(merged.body);
  if (!parsed.success) throw validationError(problemsFromZod(parsed.error, 'body'));
  return { ...parsed.data, template: received.template };
}

const resultSchema = z.object({
  success: z.literal(true),
  message: z.literal('Image Created'),
  options: leaderboardBodySchema.meta({ description: "The body as received (validated); with `template`, the template's fields with the body's over them (what was drawn), and `template`." }),
  url: z.string().meta({ description: 'Public URL of the image: `{PUBLIC_BASE_URL}/media/<uuid>.png` (or `.webp`, `.avif`, `.gif` as `format` asks), fetchable without a key.' }),
  altText: z.string().max(ALT_TEXT_MAX_LENGTH).meta({
    description: `One plain sentence listing the board's rows (rank, name, level, score) and the highlighted member's, at most ${ALT_TEXT_MAX_LENGTH} characters (Discord's limit): pass it as the attachment's \`description\`.`,
    examples: ['Leaderboard “Top chatters”: #1 Ada, level 42, 98.7K XP; #2 Kai, level 39, 90.6K XP; your row: #27 Mika, level 9, 4.2K XP.'],
  }),
});

type LeaderboardResult = z.infer<typeof resultSchema>;

const DESCRIPTION = (dependencies: LeaderboardImageDependencies) =>
  [
    `Draws a leaderboard card (an extension of the original service): a title and 1 to ${LEADERBOARD_LIMITS.maxRows} rows, each with its rank, avatar, name, level and`,
    'score (`scoreLabel`, default XP; level and score in columns aligned from row to row, their headings once above the list), ranks 1 to 3 in gold, silver and bronze with `autoColorRank`, and optionally the asking member highlighted:',
    'in place when their rank is on the board, else as an extra row under it after an ellipsis. Optional: `podium` (ranks 1 to 3 on a podium above the list), `guild` (a server header: icon, name, member count)',
    'and `background` (a photo; every box is darkened by measure until its text reaches its contrast). 900 px wide; 228 px tall for one row plus',
    '88 px per further row (1020 px for ten), 124 px more for the extra row, 24 px more with `guild`, 342 px more with `podium` (its three rows leave the list). Answered like `POST /v1/profile-image`: JSON with the public `url`',
    'and `altText` by default, the image bytes (with `Content-Location`, `ETag` and `X-Alt-Text`) when `Accept` prefers `image/png`, `image/webp`,',
    '`image/avif` or `image/gif`; `format` picks the stored format, and one contradicting `Accept` is a 406. Never animated.',
    `Avatars come from each row's \`avatarUrl\` (fetched like a profile card's images: http or https, no private addresses, 5 s, 8 MB each and`,
    `24 MiB for the board) or its \`userId\` (the Discord avatar, with a bot token); at most ${LEADERBOARD_LIMITS.maxAvatars} per board. One that cannot be had`,
    'is drawn as the default avatar (never an error). Names are cut with "…" where they do not fit.',
    "`template` names a leaderboard design saved with `POST /v1/templates` (`\"kind\": \"leaderboard\"`: title, score label, colours, format): its fields are the board's and the body's own add to or override them; a profile template is `422 template_kind_mismatch`, one the key's account does not have `404 template_not_found`.",
    'It shares the profile cards\' renderers, fairness between keys, time and memory budgets, rate limit (`RATE_LIMIT_PROFILE_IMAGE`), cards quota',
    `and cards in flight per key, and answers their errors (\`render_failed\`, \`render_timeout\` after ${dependencies.renderTimeoutMs} ms, \`queue_unavailable\`, \`storage_unavailable\`).`,
    `Identical requests of one key within ${RENDER_RETENTION.completedAgeSeconds / 60} minutes share one render (\`X-Card-Render: reused\`); the image is kept for ${dependencies.mediaTtlDays} days.`,
  ].join(' ');

/** The 429 with its reasons, when this deployment limits keys (the document's generic 429 otherwise). */
function tooManyRequests(dependencies: LeaderboardImageDependencies): Record<number, ResponseDoc> {
  if (dependencies.cardsInFlightPerKey === undefined) return {};
  return {
    429: {
      description:
        "`rate_limited` (the key's profile-image budget, which leaderboards share), `too_many_cards_in_flight` (the key already has " +
        `${dependencies.cardsInFlightPerKey} cards in progress) or \`quota_exceeded\` (the account's monthly cards or requests); all carry \`Retry-After\`.`,
    },
  };
}

const RESPONSES = (dependencies: LeaderboardImageDependencies): Record<number, ResponseDoc> => ({
  200: {
    description: 'The board was drawn (or reused) and stored. JSON by default; the image bytes when `Accept` prefers an image type (q-values respected).',
    schema: resultSchema,
    binaryTypes: IMAGE_TYPES,
    headers: {
      'X-Card-Render': '`new` when this request drew the card, `reused` when an identical request did.',
      Vary: '`Accept`: the same request answers JSON or the image depending on it.',
      'Content-Location': "Image answers: the public URL of the same image (the JSON answer's `url`).",
      ETag: 'Image answers: the strong entity tag `/media` serves the same image with.',
      'X-Alt-Text': "Image answers: the JSON answer's `altText` as an RFC 8187 ext-value (`UTF-8''` then percent-encoded UTF-8).",
    },
    example: {
      success: true,
      message: 'Image Created',
      options: { title: 'Top chatters', rows: [{ rank: 1, name: 'Ada', level: 42, score: 98765 }] },
      url: `${dependencies.publicBaseUrl}/media/8d0f6c3e-2b1a-8c4d-9e7f-0a1b2c3d4e5f.png`,
      altText: 'Leaderboard “Top chatters”: #1 Ada, level 42, 98.7K XP.',
    },
  },
  400: { description: 'A bad body field (more than 10 rows, a rank twice, both `avatarUrl` and `userId` on a row...); `details` names each one.' },
  404: { codes: ['template_not_found'], description: "`template` names no template of the key's account." },
  422: {
    codes: ['image_unusable', 'template_kind_mismatch'],
    description: '`image_unusable`: the `background` image cannot be used (unreachable, refused address, not an image, over a budget), naming the field; `template_kind_mismatch`: `template` names a profile design, not a leaderboard one.',
  },
  406: { description: '`not_acceptable`: `Accept` names none of the offered types, or an image type other than the `format` field asks for. Checked before anything is drawn.' },
  503: { description: '`queue_unavailable`, `storage_unavailable`, `render_failed`, `overloaded` or `store_unavailable` (the cards quota could not be taken); carries `Retry-After`.', retryAfter: true },
  504: { description: '`render_timeout`: no renderer finished in time.' },
  ...tooManyRequests(dependencies),
});

/** `POST /v1/leaderboard-image`: the board through the same render queue, store and answers as a profile card. */
export function leaderboardImageEndpoints(dependencies: LeaderboardImageDependencies) {
  return [
    defineEndpoint({
      methods: ['POST'] as const,
      operationId: 'createLeaderboardImage',
      path: '/v1/leaderboard-image',
      summary: 'Create a leaderboard card image',
      description: DESCRIPTION(dependencies),
      tags: ['Profile image'],
      authenticated: true,
      scope: 'cards' as const,
      limits: { budget: 'profileImage', holdsCardSlot: true } as const,
      stopsWhenClientLeaves: true,
      body: leaderboardBodySchema,
      bodyExample: {
        title: 'Top chatters',
        rows: [
          { rank: 1, name: 'Ada', userId: '302050872383242240', level: 42, score: 98765 },
          // No avatarUrl here: the documented curl sample runs as copied, and must reach nothing but this API.
          { rank: 2, name: 'Kai', userId: '175928847299117063', level: 39, score: 90642 },
        ],
        highlight: { rank: 27, name: 'Mika', level: 9, score: 4210 },
        autoColorRank: true,
      },
      responses: RESPONSES(dependencies),
      handle: async ({ body: received, request }) => {
        const body = await withTemplate(dependencies, received, request);
        const { format: askedFormat, template: _template, ...leaderboard } = body;
        const answer = negotiateAnswer(request.headers, askedFormat, false);
        const format = answer.kind === 'image' ? answer.format : askedFormat;
        const { result, reused } = await dependencies.queue
          .render({ kind: 'leaderboard', leaderboard, format, requestId: request.requestId }, dependencies.renderTimeoutMs, request.keyId, request.gone)
          .catch((error: unknown) => {
            throw queueErrorToApiError(error, dependencies.renderTimeoutMs);
          });
        if (!result.ok) throw renderFailureToApiError(result.failure);
        const url = `${dependencies.publicBaseUrl}/media/${result.mediaKey}.${result.format}`;
        const headers = { 'X-Card-Render': reused ? 'reused' : 'new', Vary: 'Accept' };
        if (answer.kind === 'image') {
          const reply = await storedImageReply(dependencies.media, result, { ...headers, 'Content-Location': url, 'X-Alt-Text': rfc8187(result.altText) });
          dependencies.onRendered?.(reused);
          return reply;
        }
        dependencies.onRendered?.(reused);
        return new Reply<LeaderboardResult>(200, { success: true, message: 'Image Created', options: body, url, altText: result.altText }, headers, result.format);
      },
    }),
  ];
}
