import { ERROR_CATALOGUE, type ErrorCode } from '@utility-api/api-errors';
import { z } from 'zod';
import { isMediaKey } from './media-names.ts';
import { RENDER_RETENTION } from './render-job-options.ts';
import { cardFormatSchema } from './render-job-payload.ts';

/** Discord's limit on an attachment's `description`, where bots put a card's alt text. */
export const ALT_TEXT_MAX_LENGTH = 1024;

/**
 * The codes a render can fail with (their statuses and Retry-After rules are in the error
 * catalogue): Discord has no such user; an image could not be fetched or used; Discord failed; the
 * media store could not take the image; the card crashed its worker or ran over budget; the
 * embedded gateway already has RENDER_QUEUE_LIMIT cards waiting or drawing.
 */
const RENDER_FAILURE_CODES = ['unknown_user', 'image_unusable', 'discord_unavailable', 'storage_unavailable', 'render_failed', 'overloaded'] as const satisfies readonly ErrorCode[];

const renderFailureSchema = z.object({
  code: z.enum(RENDER_FAILURE_CODES),
  /** The catalogue's status for the code (or its other status: Discord's 503). */
  status: z.number().int().min(400).max(599),
  /** The request field at fault, such as `userId`, `customBackground` or `customBadges.2`. */
  field: z.string().optional(),
  /** Public-safe sentence for the API user, without the field. */
  detail: z.string(),
  retryAfterSeconds: z.number().optional(),
  /** Another attempt may succeed (storage or Discord trouble): BullMQ retries before answering it. */
  retryable: z.boolean().optional(),
});

export type RenderFailure = z.output<typeof renderFailureSchema>;

/**
 * What a render job answers, as the BullMQ job's return value or from the embedded engine: the
 * stored image, or a failure the client should hear. Only crashes and timeouts are thrown.
 */
export const renderJobResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Names the stored image (`/media/<mediaKey>.<format>`), derived from its bytes. */
    mediaKey: z.string().refine(isMediaKey),
    format: cardFormatSchema,
    /** One plain sentence describing the card, for screen readers (`cardAltText`). */
    altText: z.string().max(ALT_TEXT_MAX_LENGTH),
    /** A profile card's accent, `#rrggbb` (the card's `accentColor`); a leaderboard has none. */
    accentColor: z.string().regex(/^#[0-9a-f]{6}$/).optional(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    bytes: z.number().int().positive(),
    /**
     * Only for `options.animated`: whether the stored card moves (else it is the still card), and
     * its frame count (1 when still).
     */
    animation: z.object({ animated: z.boolean(), frames: z.number().int().positive() }).optional(),
    /** Milliseconds per phase: profile, images (fetch), draw, encode, store. */
    timings: z.record(z.string(), z.number()),
    warnings: z.array(z.string()),
  }),
  z.object({ ok: z.literal(false), failure: renderFailureSchema }),
]);

export type RenderJobResult = z.output<typeof renderJobResultSchema>;

/**
 * A card that crashed its render worker or ran over its memory or time budget, or a job whose
 * renderers died: drawing it again would do the same, so identical requests get this answer for
 * `RENDER_RETENTION.failedAgeSeconds`. Its Retry-After is that whole wait; the render queue
 * answers a repeat with what is left of it.
 */
export const RENDER_FAILED: RenderFailure = {
  code: 'render_failed',
  status: ERROR_CATALOGUE.render_failed.status,
  detail: 'The card could not be rendered: it crashed or exceeded its memory or time budget.',
  retryAfterSeconds: RENDER_RETENTION.failedAgeSeconds,
};
