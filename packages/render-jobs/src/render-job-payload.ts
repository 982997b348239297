import { z } from 'zod';
import { DEFAULT_MEDIA_FORMAT, MEDIA_FORMATS, type MediaFormat } from './media-names.ts';
import { cardOptionsSchema } from './card-options.ts';
import { discordIdMismatches } from './discord-objects.ts';
import { leaderboardOptionsSchema } from './leaderboard-options.ts';
import { snowflakeSchema } from './snowflake.ts';

const CARD_FORMATS = Object.keys(MEDIA_FORMATS) as [MediaFormat, ...MediaFormat[]];

/** The image format a card is stored and served in; its URL ends in the matching extension. */
export const cardFormatSchema = z.enum(CARD_FORMATS, { error: `must be one of ${CARD_FORMATS.join(', ')}` }).meta({
  description:
    'Image format of the card: `png` (default; lossless), `webp` (lossy, quality 90: about a fifth of the PNG), `avif` (lossy: about a sixth of the PNG) or `gif` (one frame, 256 colours: the card is quantised to a palette, so gradients and photos band; only worth it for clients that want GIF). The URL ends in the matching extension (`/media/<uuid>.webp`).',
  examples: ['webp'],
});

/** What an animated card is encoded as; a card asked for as animated that does not move is stored as its still format. */
export type CardAnimationEncoding = { animation: 'webp' | 'gif'; still: MediaFormat };

/**
 * The encodings of a card asked for with `animated: true`: animated WebP, or GIF when `format` is
 * gif; when nothing moves, the still card in `format`, PNG when none was given (a still WebP would
 * be a surprise to a client that asked for nothing). Undefined for a still request (and every leaderboard).
 */
export function cardAnimationEncoding(request: { options?: { animated?: boolean | undefined }; format?: MediaFormat | undefined }): CardAnimationEncoding | undefined {
  // A leaderboard job has no options of this kind: never animated.
  if (request.options?.animated !== true) return undefined;
  return { animation: request.format === 'gif' ? 'gif' : 'webp', still: request.format ?? DEFAULT_MEDIA_FORMAT };
}

/** PNG and AVIF cannot carry the animation here (sharp writes neither animated): asking for both is a mistake to name. */
export function refuseStillOnlyFormat(request: { animated?: boolean | undefined; format?: MediaFormat | undefined }, context: z.RefinementCtx): void {
  if (request.animated === true && (request.format === 'png' || request.format === 'avif')) {
    context.addIssue({ code: 'custom', path: ['format'], message: `must be webp or gif (or left out) when animated is true: ${request.format} cannot move` });
  }
}

/** Who asked: the same for every kind of job. */
const jobCommon = {
  /** Absent means PNG, as for a job queued before formats existed. */
  format: cardFormatSchema.optional(),
  /** Request id of the HTTP call that asked first, so logs follow a card from request to upload. */
  requestId: z.string().max(128).optional(),
  /**
   * The id of the API key that asked (never the key itself): renderers share their workers fairly
   * between keys (a key's cards wait behind its own, not behind everyone's). Absent: one shared lane.
   */
  keyId: z.string().max(128).optional(),
};

/** A profile, welcome or level-up card (`POST /v1/profile-image`). `kind` absent: a profile job. */
const profileJobSchema = z
  .strictObject({ kind: z.literal('profile').optional(), userId: snowflakeSchema, options: cardOptionsSchema, ...jobCommon })
  .superRefine((payload, context) => {
    refuseStillOnlyFormat({ animated: payload.options.animated, format: payload.format }, context);
    // The gateway refuses these with a 400; checked again so a job can never draw someone else's objects.
    for (const { path, message } of discordIdMismatches(payload.userId, payload.options)) context.addIssue({ code: 'custom', path: ['options', ...path], message });
  });

/** A leaderboard card (`POST /v1/leaderboard-image`): no user of its own; its avatars come from its rows. */
const leaderboardJobSchema = z.strictObject({ kind: z.literal('leaderboard'), leaderboard: leaderboardOptionsSchema, ...jobCommon });

/** Everything a renderer needs to draw one card. The gateway validates it; the renderer re-validates. */
export const renderJobPayloadSchema = z.union([profileJobSchema, leaderboardJobSchema]);

export type RenderJobPayload = z.output<typeof renderJobPayloadSchema>;
export type ProfileJobPayload = z.output<typeof profileJobSchema>;
export type LeaderboardJobPayload = z.output<typeof leaderboardJobSchema>;

export function isLeaderboardJob(payload: RenderJobPayload): payload is LeaderboardJobPayload {
  return payload.kind === 'leaderboard';
}
