import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { KEY_SCOPES, type KeyScope } from '../http/key-scopes.ts';
import { RATE_BUDGETS, rateSpecSchema, type KeyRateLimits } from './rate-spec.ts';

/**
 * The local owner: the account of a self-hosted gateway's operator. Bootstrap keys (`API_KEYS`)
 * and keys made with the CLI without `--account` belong to it, and its sign-in is the one-time
 * link `./run start` prints.
 */
export const OWNER_ACCOUNT_ID = 'acct_owner';

export const ACCOUNT_ID = /^acct_[a-z0-9_]{1,40}$/;

/** Who a valid key belongs to; never the key itself. */
export interface ApiKeyIdentity {
  /**
   * Stable, non-secret id of the key, safe to log and to key rate limits by: `uk_live_<id>` for a
   * managed key, `key_<hash prefix>` for a bootstrap key from `API_KEYS`.
   */
  id: string;
  name: string;
  /** Budgets this key has instead of the configured ones. */
  limits?: KeyRateLimits;
  /** The account whose key it is (bootstrap keys: the local owner's). */
  accountId: string;
  /** What the key may call; undefined means everything. */
  scopes?: readonly KeyScope[];
}

/**
 * SHA-256 suffices for API keys: they are long random secrets, not passwords, so there is nothing
 * to slow down a dictionary attack against, and hashing stays cheap on the hot path.
 */
export function hashApiKey(key: string): Buffer {
  // One-shot crypto.hash: a third of createHash's cost on the per-request path.
  return hash('sha256', key, 'buffer');
}

/** A non-secret identifier for logs and limits: the first 12 hex digits of the hash. */
export function apiKeyId(keyHash: Buffer): string {
  return `key_${keyHash.subarray(0, 6).toString('hex')}`;
}

/**
 * Managed keys look like `uk_live_<id>_<secret>`: `uk_live_<id>` is the visible prefix that names
 * the key in lists and logs, the id (8 lowercase letters and digits) finds its record without a
 * scan, and the secret is 32 base62 characters (about 190 bits).
 */
const MANAGED_KEY_PREFIX = 'uk_live_';
const MANAGED_KEY_ID = /^[a-z0-9]{8}$/;
const MANAGED_KEY = /^uk_live_([a-z0-9]{8})_[A-Za-z0-9]{32,64}$/;
export const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniform characters from the alphabet: bytes past the last whole multiple are dropped, not folded. */
export function randomText(alphabet: string, length: number): string {
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
  return randomText(ID_ALPHABET, 8);
}

export function managedKeyPrefix(id: string): string {
  return `${MANAGED_KEY_PREFIX}${id}`;
}

export function generateManagedKey(id: string): string {
  return `${managedKeyPrefix(id)}_${randomText(SECRET_ALPHABET, 32)}`;
}

/** The record id a presented key claims, or undefined when it is not shaped like a managed key. */
export function managedKeyId(presentedKey: string): string | undefined {
  return MANAGED_KEY.exec(presentedKey)?.[1];
}

/** `abcd1234`, `uk_live_abcd1234` or a whole key name the same record; anything else is undefined. */
export function keyIdFromReference(reference: string): string | undefined {
  const text = reference.trim();
  const id = text.startsWith(MANAGED_KEY_PREFIX) ? text.slice(MANAGED_KEY_PREFIX.length) : text;
  return MANAGED_KEY_ID.test(id) ? id : managedKeyId(text);
}

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
  /** The account the key belongs to; absent (keys made before accounts) means the local owner's. */
  accountId: z.string().regex(ACCOUNT_ID).optional(),
  /** What the key may call; absent means everything. */
  scopes: z.array(z.enum(KEY_SCOPES)).min(1).optional(),
  /** After a roll: the secret before it, still valid until `previousExpiresAt` (the grace period). */
  previousHash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  previousExpiresAt: z.iso.datetime().optional(),
  rolledAt: z.iso.datetime().optional(),
});

export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

/** Thrown when stored key data does not parse: a hand-edited or foreign file, or a foreign Redis key. */
export class KeyStoreDataError extends Error {
  constructor(where: string, cause: unknown) {
    super(`unreadable key data in ${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'KeyStoreDataError';
  }
}

/** Parses stored JSON text or an already parsed value; any fault is a KeyStoreDataError naming `where`. */
export function parseStoredKeys<Schema extends z.ZodType>(schema: Schema, json: string, where: string): z.output<Schema> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new KeyStoreDataError(where, error);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new KeyStoreDataError(where, new Error(z.prettifyError(parsed.error)));
  return parsed.data;
}
