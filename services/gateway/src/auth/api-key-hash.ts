import { createHash } from 'node:crypto';

/**
 * SHA-256 suffices for API keys: they are long random secrets, not passwords, so there is nothing
 * to slow down a dictionary attack against, and hashing stays cheap on the hot path.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A non-secret identifier for logs and limits: the first 12 hex digits of the hash. */
export function apiKeyId(hash: Buffer): string {
  return `key_${hash.subarray(0, 6).toString('hex')}`;
}
