import { randomBytes } from 'node:crypto';

/**
 * Managed keys look like `uk_live_<id>_<secret>`: `uk_live_<id>` is the visible prefix that names
 * the key in lists and logs, the id (8 lowercase letters and digits) finds its record without a
 * scan, and the secret is 32 base62 characters (about 190 bits).
 */
export const MANAGED_KEY_PREFIX = 'uk_live_';
const ID_LENGTH = 8;
const SECRET_LENGTH = 32;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const MANAGED_KEY_ID = /^[a-z0-9]{8}$/;
const MANAGED_KEY = /^uk_live_([a-z0-9]{8})_[A-Za-z0-9]{32,64}$/;

/** Uniform characters from the alphabet: bytes past the last whole multiple are dropped, not folded. */
function randomText(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) text += alphabet[byte % alphabet.length];
      if (text.length === length) break;
    }
  }
  return text;
}

export function generateKeyId(): string {
  return randomText(ID_ALPHABET, ID_LENGTH);
}

export function managedKeyPrefix(id: string): string {
  return `${MANAGED_KEY_PREFIX}${id}`;
}

export function generateManagedKey(id: string): string {
  return `${managedKeyPrefix(id)}_${randomText(SECRET_ALPHABET, SECRET_LENGTH)}`;
}

/** The record id a presented key claims, or undefined when it is not shaped like a managed key. */
export function managedKeyId(presentedKey: string): string | undefined {
  return MANAGED_KEY.exec(presentedKey)?.[1];
}
