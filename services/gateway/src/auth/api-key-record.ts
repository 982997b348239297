import { z } from 'zod';
import { RATE_BUDGETS } from '../rate-limits/rate-budget.ts';
import { rateSpecSchema } from '../rate-limits/rate-spec.ts';
import { MANAGED_KEY_ID } from './managed-key-format.ts';

export const KEY_NAME = /^[\p{L}\p{N} ._:@/-]{1,64}$/u;

/**
 * A managed key as stored, in Redis or the keys file. The key itself is never stored: only its
 * SHA-256 (hex), which is useless for calling the API.
 */
export const apiKeyRecordSchema = z.object({
  id: z.string().regex(MANAGED_KEY_ID),
  name: z.string().regex(KEY_NAME),
  prefix: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  limits: z.partialRecord(z.enum(RATE_BUDGETS), rateSpecSchema).optional(),
});

export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

/** Thrown when stored key data does not parse: a hand-edited or foreign file, or a foreign Redis key. */
export class KeyStoreDataError extends Error {
  constructor(where: string, cause: unknown) {
    super(`unreadable key data in ${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'KeyStoreDataError';
  }
}

export function parseApiKeyRecord(value: unknown, where: string): ApiKeyRecord {
  const parsed = apiKeyRecordSchema.safeParse(value);
  if (!parsed.success) throw new KeyStoreDataError(where, new Error(z.prettifyError(parsed.error)));
  return parsed.data;
}
