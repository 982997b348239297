import { createHash, randomBytes } from 'node:crypto';
import type { AccountStore } from './account-store.ts';

/** How long a one-time sign-in link works: long enough to copy it from a terminal into a browser. */
const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** The token in the link: 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A one-time link that signs a browser in as the account: `<baseUrl>/account/sign-in#token=<token>`.
 * The token sits in the fragment, which browsers never send to a server, so it reaches no access
 * log, proxy or Referer; the sign-in page reads it and POSTs it. Only its SHA-256 is stored.
 */
export async function createSignInLink(
  store: AccountStore,
  options: { accountId: string; baseUrl: string; now: Date; ttlMs?: number },
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + (options.ttlMs ?? SIGN_IN_LINK_TTL_MS));
  await store.putOnce('sign-in-link', sha256hex(token), options.accountId, expiresAt);
  return { url: `${options.baseUrl.replace(/\/+$/, '')}/account/sign-in#token=${token}`, expiresAt };
}

/** The account the link signs in as, once: a second use, an expired or a made-up token is undefined. */
export async function redeemSignInLink(store: AccountStore, token: string, now: Date): Promise<string | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return store.takeOnce('sign-in-link', sha256hex(token), now);
}
