import { MEDIA_FORMATS, type MediaFormat } from '@utility-api/media-store';
import { z } from 'zod';
import { cardOptionsSchema } from './card-options.ts';

const CARD_FORMATS = Object.keys(MEDIA_FORMATS) as [MediaFormat, ...MediaFormat[]];

/** The image format a card is stored and served in; its URL ends in the matching extension. */
export const cardFormatSchema = z.enum(CARD_FORMATS, { error: `must be one of ${CARD_FORMATS.join(', ')}` }).meta({
  description:
    'Image format of the card: `png` (default; lossless), `webp` (lossy, quality 90: about a fifth of the PNG), `avif` (lossy: about a sixth of the PNG) or `gif` (one frame, 256 colours: the card is quantised to a palette, so gradients and photos band; only worth it for clients that want GIF). The URL ends in the matching extension (`/media/<uuid>.webp`).',
  examples: ['webp'],
});

/** A Discord user id: a snowflake of 17 to 20 digits (ids issued from 2015 until far in the future). */
const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

export const snowflakeSchema = z
  .string({ error: 'must be a Discord user id: 17 to 20 digits' })
  // abort: zod runs later checks after a failed one, which reported the same problem twice.
  .regex(SNOWFLAKE_PATTERN, { error: 'must be a Discord user id: 17 to 20 digits', abort: true })
  .refine((text) => BigInt(text) < 1n << 64n, { error: 'must be a Discord user id: 17 to 20 digits' });

/** Everything a renderer needs to draw one card. The gateway validates it; the renderer re-validates. */
export const renderJobPayloadSchema = z.strictObject({
  userId: snowflakeSchema,
  options: cardOptionsSchema,
  /** Absent means PNG, as for a job queued before formats existed. */
  format: cardFormatSchema.optional(),
  /** Request id of the HTTP call that asked first, so logs follow a card from request to upload. */
  requestId: z.string().max(128).optional(),
});

export type RenderJobPayload = z.output<typeof renderJobPayloadSchema>;
