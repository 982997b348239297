import { hash, randomBytes } from 'node:crypto';
import type { AccountStore } from './account-store.ts';

/** How long a sign-in link works unless the caller says otherwise: long enough to open it, short enough not to linger in a terminal's scrollback. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;

/** 32 random bytes in base64url: 43 characters, nothing else. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The store keeps only this: a read of the store (or a backup) signs nobody in. */
const tokenHash = (token: string) => hash('sha256', token, 'hex');

/**
 * A one-time sign-in link for an account, for the local owner (`./run start`, `./run keys
 * sign-in-link`) where there is no Discord sign-in. The token rides in the fragment (`#token=`),
 * which browsers never send to a server, so it stays out of access logs and Referer headers; the
 * page reads it and redeems it. The store keeps its SHA-256 until it is used or expires.
 */
export async function createSignInLink(
  store: Pick<AccountStore, 'putOnce'>,
  options: { accountId: string; baseUrl: string; now: Date; ttlMs?: number },
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + (options.ttlMs ?? SIGN_IN_LINK_TTL_MS));
  await store.putOnce('sign-in-link', tokenHash(token), options.accountId, expiresAt);
  return { url: `${options.baseUrl.replace(/\/+$/, '')}/account/sign-in#token=${token}`, expiresAt };
}

/**
 * The account a link's token signs in to, once: a second use, an expired link or anything not
 * shaped like a token is undefined (a malformed token never reaches the store).
 */
export async function redeemSignInLink(store: Pick<AccountStore, 'takeOnce'>, token: string, now: Date): Promise<string | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return store.takeOnce('sign-in-link', tokenHash(token), now);
}
