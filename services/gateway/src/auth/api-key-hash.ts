import { hash } from 'node:crypto';

/**
 * SHA-256 suffices for API keys: they are long random secrets, not passwords, so there is nothing
 * to slow down a dictionary attack against, and hashing stays cheap on the hot path.
 */
export function hashApiKey(key: string): Buffer {
  // One-shot crypto.hash: a third of createHash's cost on the per-request path.
  return hash('sha256', key, 'buffer');
}

/** A non-secret identifier for logs and limits: the first 12 hex digits of the hash. */
export function apiKeyId(hash: Buffer): string {
  return `key_${hash.subarray(0, 6).toString('hex')}`;
}
