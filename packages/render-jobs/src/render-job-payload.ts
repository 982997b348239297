import { z } from 'zod';
import { cardOptionsSchema } from './card-options.ts';

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
  /** Request id of the HTTP call that asked first, so logs follow a card from request to upload. */
  requestId: z.string().max(128).optional(),
});

export type RenderJobPayload = z.output<typeof renderJobPayloadSchema>;
