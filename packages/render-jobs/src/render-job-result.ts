import { isMediaKey } from '@utility-api/media-store';
import { z } from 'zod';
import { RENDER_RETENTION } from './render-job-options.ts';
import { cardFormatSchema } from './render-job-payload.ts';

/** Discord's limit on an attachment's `description`, where bots put a card's alt text. */
export const ALT_TEXT_MAX_LENGTH = 1024;

/** Why a render failed, by the HTTP status the client hears. */
export const RENDER_FAILURE_CODES = {
  /** Discord has no user with this id. */
  unknown_user: 404,
  /** A custom or profile image could not be fetched or used (refused address, too large, corrupt...). */
  image_unusable: 422,
  /** Discord's API failed or rate-limited us. */
  discord_unavailable: 502,
  /** The media store could not take the image. */
  storage_unavailable: 503,
  /** The card crashed its render worker or ran over budget, or renderers died on the job. */
  render_failed: 503,
  /** The embedded gateway already has RENDER_QUEUE_LIMIT distinct cards waiting or drawing. */
  overloaded: 503,
} as const;

type RenderFailureCode = keyof typeof RENDER_FAILURE_CODES;

const renderFailureSchema = z.object({
  code: z.enum(Object.keys(RENDER_FAILURE_CODES) as [RenderFailureCode, ...RenderFailureCode[]]),
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
  status: RENDER_FAILURE_CODES.render_failed,
  detail: 'The card could not be rendered: it crashed or exceeded its memory or time budget.',
  retryAfterSeconds: RENDER_RETENTION.failedAgeSeconds,
};
