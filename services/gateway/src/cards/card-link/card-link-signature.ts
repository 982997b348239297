import { createHmac, timingSafeEqual } from 'node:crypto';
import { apiKeyId, hashApiKey, managedKeyId, managedKeyPrefix } from '../../auth/api-keys.ts';

/**
 * Signed card links (docs/card-links.md is the normative description; the SDKs' `cardUrl` and
 * `card_url` implement the same steps): a GET URL a bot builds offline, whose first fetch draws
 * the card and whose later fetches are served from storage.
 *
 *   {base}/v1/card-link?v=1&k=<key id>&u=<user id>[&o=<options>][&e=<expires>]&s=<signature>
 *
 * The signed text is the query string before `&s=`, byte for byte, so nothing needs to be
 * re-encoded or sorted to check it (no canonical JSON: `o` is signed as the characters it is).
 * The HMAC key is the SHA-256 of the API key: the server stores only that hash (never the key),
 * and a bot holding the key derives it in one call.
 */
export const CARD_LINK_PATH = '/v1/card-link';
const CARD_LINK_VERSION = '1';

/**
 * `o` at most: Node's 16 KiB header limit bounds the request line anyway, and a card body this
 * long belongs in a template. Discord itself accepts embed image URLs of up to 2048 characters.
 */
export const MAX_CARD_LINK_OPTIONS_CHARS = 8192;

/** A key's public id: `uk_live_<8>` for a managed key, `key_<12 hex>` for a bootstrap key (API_KEYS). */
const KEY_ID = 'uk_live_[a-z0-9]{8}|key_[0-9a-f]{12}';
const LINK_QUERY = new RegExp(
  `^(v=${CARD_LINK_VERSION}&k=(${KEY_ID})&u=(\\d{17,20})(?:&o=([A-Za-z0-9_-]{1,${MAX_CARD_LINK_OPTIONS_CHARS}}))?(?:&e=([1-9]\\d{0,10}))?)&s=([0-9a-f]{64})$`,
);

export interface CardLinkParts {
  keyId: string;
  userId: string;
  /** The POST body, as JSON: any profile-image body field, `template` included. */
  options?: Record<string, unknown> | undefined;
  /** Unix seconds after which the link answers 410. */
  expiresAt?: number | undefined;
}

/** A link's query as received: the signed text, what it says, and the signature it carries. */
export interface ParsedCardLink {
  signed: string;
  keyId: string;
  userId: string;
  /** `o` as sent (base64url), decoded only after the signature checks out. */
  encodedOptions: string | undefined;
  expiresAt: number | undefined;
  signature: Buffer;
}

/** The HMAC key a link is signed with: SHA-256 of the API key, which is what the server keeps. */
export function cardLinkSigningKey(apiKey: string): Buffer {
  return hashApiKey(apiKey);
}

function signCardLinkText(signingKey: Buffer, signed: string): Buffer {
  return createHmac('sha256', signingKey).update(signed, 'utf8').digest();
}

/** `v=1&k=..&u=..[&o=..][&e=..]`: the text the signature covers. */
export function cardLinkSignedText(parts: CardLinkParts): string {
  let text = `v=${CARD_LINK_VERSION}&k=${parts.keyId}&u=${parts.userId}`;
  if (parts.options !== undefined) text += `&o=${Buffer.from(JSON.stringify(parts.options), 'utf8').toString('base64url')}`;
  if (parts.expiresAt !== undefined) text += `&e=${parts.expiresAt}`;
  return text;
}

/** A whole link, as the SDKs build it (the server's tests check the SDKs against this). */
export function buildCardLink(baseUrl: string, apiKey: string, parts: CardLinkParts): string {
  const signed = cardLinkSignedText(parts);
  return `${baseUrl.replace(/\/+$/, '')}${CARD_LINK_PATH}?${signed}&s=${signCardLinkText(cardLinkSigningKey(apiKey), signed).toString('hex')}`;
}

/** The raw query string (without `?`) as a link, or undefined when it is not shaped like one. */
export function parseCardLinkQuery(query: string): ParsedCardLink | undefined {
  const match = LINK_QUERY.exec(query);
  if (!match) return undefined;
  return {
    signed: match[1]!,
    keyId: match[2]!,
    userId: match[3]!,
    encodedOptions: match[4],
    expiresAt: match[5] === undefined ? undefined : Number(match[5]),
    signature: Buffer.from(match[6]!, 'hex'),
  };
}

/** Whether any of the key's current signing keys (a rolled key's old one too, in its grace period) signed the link. */
export function cardLinkSignatureMatches(link: ParsedCardLink, signingKeys: readonly Buffer[]): boolean {
  let matched = false;
  // Every candidate is compared, without stopping at a match: the time says nothing about which.
  for (const key of signingKeys) if (timingSafeEqual(signCardLinkText(key, link.signed), link.signature)) matched = true;
  return matched;
}

/** `o` decoded: a JSON object, or undefined when it is not one. */
export function decodeCardLinkOptions(encoded: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The public id a link names for an API key, computed offline: the key's visible prefix, or `key_<hash>` for a bootstrap key. */
export function cardLinkKeyId(apiKey: string): string {
  const managed = managedKeyId(apiKey);
  return managed === undefined ? apiKeyId(hashApiKey(apiKey)) : managedKeyPrefix(managed);
}
