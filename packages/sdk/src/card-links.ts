import { createHash, createHmac } from 'node:crypto';
import type { CardOptions } from './types.ts';

/**
 * Signed card links, scheme version 1 (docs/card-links.md): built offline, so a bot puts a card in
 * an embed without waiting for the API. Node's crypto, synchronous: `setImage(cardUrl(...))`.
 */
export interface CardUrlOptions {
  /** Where the API is, such as `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /** The key that signs the link; it never appears in the link, only its public id does. */
  apiKey: string;
  userId: string;
  /** The card's fields, as the POST body (`template` included); none for a plain card. */
  card?: CardOptions | undefined;
  /** When the link stops working (410): a Date, or Unix seconds. */
  expiresAt?: Date | number | undefined;
}

/** The key's public id a link names: `uk_live_<id>` of a managed key, `key_<12 hex of SHA-256>` of a key from API_KEYS. */
export function cardLinkKeyId(apiKey: string): string {
  const managed = /^(uk_live_[a-z0-9]{8})_[A-Za-z0-9]{32,64}$/.exec(apiKey);
  return managed ? managed[1]! : `key_${createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 12)}`;
}

/** A signed card link: `{baseUrl}/v1/card-link?v=1&k=..&u=..[&o=..][&e=..]&s=..`. */
export function cardUrl(options: CardUrlOptions): string {
  let signed = `v=1&k=${cardLinkKeyId(options.apiKey)}&u=${options.userId}`;
  if (options.card !== undefined && Object.keys(options.card).length > 0) signed += `&o=${Buffer.from(JSON.stringify(options.card), 'utf8').toString('base64url')}`;
  if (options.expiresAt !== undefined) {
    const seconds = options.expiresAt instanceof Date ? Math.floor(options.expiresAt.getTime() / 1000) : Math.floor(options.expiresAt);
    signed += `&e=${seconds}`;
  }
  // The HMAC key is SHA-256 of the API key: all the server keeps of it.
  const signingKey = createHash('sha256').update(options.apiKey, 'utf8').digest();
  const signature = createHmac('sha256', signingKey).update(signed, 'utf8').digest('hex');
  return `${options.baseUrl.replace(/\/+$/, '')}/v1/card-link?${signed}&s=${signature}`;
}
