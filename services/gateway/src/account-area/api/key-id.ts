import { z } from 'zod';
import { ApiError } from '../../http/api-error.ts';

const KEY_ID = /^[a-z0-9]{8}$/;

/**
 * The key named in the path. Any text is taken and a malformed id is "not found" like another
 * account's: the answer must not tell which ids exist, nor how they are shaped.
 */
export const keyIdParams = z.object({ id: z.string().meta({ description: "The key's id (8 letters and digits)." }) });

export function ownKeyId(id: string): string {
  if (!KEY_ID.test(id)) throw new ApiError('key_not_found', 'No such key in your account.');
  return id;
}
