import { z } from 'zod';

/** Where the managed keys file is, for the gateway and for `pnpm keys`. */
export const keysFileField = z.string().default('.data/api-keys.json');

/** What `pnpm keys` reads: the gateway's own two variables that say where managed keys live. */
export const keysEnvironmentSchema = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' }).optional(),
  KEYS_FILE: keysFileField,
});
