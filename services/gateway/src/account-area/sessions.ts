import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Session } from '../accounts/account-model.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { SignedInSession } from '../http/endpoint.ts';
import { ApiError } from '../http/api-error.ts';
import type { GatewayContext } from '../http/request-pipeline.ts';

/** A session ends after this long without a request (OWASP ASVS 3.3: idle timeout)... */
const IDLE_TIMEOUT_MS = 12 * 3_600_000;
/** ...and this long after sign-in whatever the activity (absolute timeout). */
const ABSOLUTE_TIMEOUT_MS = 7 * 86_400_000;
/**
 * Sessions one account keeps at once (OWASP ASVS 5.0 7.1.2: the number is defined, and so is what
 * happens past it): a sign-in beyond it ends the account's oldest session (the one with the
 * earliest absolute end), in the same store step that adds the new one. Sign-in is never refused
 * for it: a refusal would let whoever holds ten sessions lock the owner out.
 */
export const MAX_SESSIONS_PER_ACCOUNT = 10;
/** The last-seen time is written at most this often: one store write a minute, not one per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** A session id and a CSRF token: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const CSRF_HEADER = 'x-csrf-token';

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

/**
 * The names and flags of the area's cookies. Over https: `__Host-session`, `Secure`, `Path=/`,
 * no Domain, which the browser enforces (a sibling subdomain or a plain-http page cannot set or
 * shadow it). Over plain http (a gateway on loopback or a private network, PUBLIC_BASE_URL
 * http://...) a `Secure` cookie would be refused by browsers outside localhost and the `__Host-`
 * prefix needs `Secure`, so the cookie is a plain `session` there: the connection is not private
 * anyway. Both are `HttpOnly` (no script reads them) and `SameSite=Lax` (not sent on cross-site
 * POSTs; sent on the top-level GET back from Discord, which the OAuth cookie needs).
 */
export function cookieNames(publicBaseUrl: string): { session: string; oauth: string; secure: boolean } {
  const secure = new URL(publicBaseUrl).protocol === 'https:';
  return secure ? { session: '__Host-session', oauth: '__Host-oauth', secure } : { session: 'session', oauth: 'oauth', secure };
}

export function cookieHeader(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** A cookie's value when it is shaped like our tokens; anything else (hostile, truncated) is no cookie. */
export function tokenCookie(ctx: GatewayContext, name: string): string | undefined {
  const value = ctx.cookies.get(name);
  return value !== undefined && TOKEN.test(value) ? value : undefined;
}

/** Timing-safe comparison of a presented token with the expected one. */
export function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Browser sessions of the account area. The cookie holds 32 random bytes; the store keeps only
 * their SHA-256, so a copy of the store (a backup, a Redis dump) signs nobody in.
 */
export class AccountSessions {
  readonly #store: AccountStore;
  readonly #cookies: ReturnType<typeof cookieNames>;

  constructor(store: AccountStore, publicBaseUrl: string) {
    this.#store = store;
    this.#cookies = cookieNames(publicBaseUrl);
  }

  get cookies(): ReturnType<typeof cookieNames> {
    return this.#cookies;
  }

  /**
   * Signs a browser in; returns the Set-Cookie header that gives it the session. A fresh id every
   * time: the session it had before (`replacing`, the hash of its cookie), or one planted in it, is
   * deleted, so session fixation gets the attacker nothing.
   */
  async open(replacing: string | undefined, accountId: string, method: Session['method'], now: Date): Promise<string> {
    if (replacing !== undefined) await this.#store.deleteSession(replacing);
    const id = randomToken();
    await this.#store.createSession({
      idHash: sha256hex(id),
      accountId,
      csrfToken: randomToken(),
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ABSOLUTE_TIMEOUT_MS).toISOString(),
      method,
    }, MAX_SESSIONS_PER_ACCOUNT);
    return cookieHeader(this.#cookies.session, id, ABSOLUTE_TIMEOUT_MS / 1000, this.#cookies.secure);
  }

  /** Opens a session (see `open`) and writes the sign-in to the account's audit log; the Set-Cookie header. */
  async signIn(replacing: string | undefined, accountId: string, method: Session['method'], now: Date): Promise<string> {
    const cookie = await this.open(replacing, accountId, method, now);
    await this.#store.audit({ at: now.toISOString(), accountId, type: 'signed_in', actor: `session:${method}`, detail: { method } });
    return cookie;
  }

  /** The hash of the browser's session cookie, live or not (what a new sign-in replaces). */
  cookieIdHash(ctx: GatewayContext): string | undefined {
    const id = tokenCookie(ctx, this.#cookies.session);
    return id === undefined ? undefined : sha256hex(id);
  }

  /** The browser's live session, or undefined (no cookie, unknown, idle too long, past its end). */
  async current(ctx: GatewayContext, now: Date): Promise<SignedInSession | undefined> {
    const id = tokenCookie(ctx, this.#cookies.session);
    if (id === undefined) return undefined;
    const idHash = sha256hex(id);
    const session = await this.#store.session(idHash);
    if (!session) return undefined;
    const lastSeen = Date.parse(session.lastSeenAt);
    if (now.getTime() >= Date.parse(session.expiresAt) || now.getTime() - lastSeen >= IDLE_TIMEOUT_MS) {
      await this.#store.deleteSession(idHash);
      return undefined;
    }
    if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) await this.#store.touchSession(idHash, now);
    return { session, idHash };
  }

  /** Ends this browser's session; the Set-Cookie header that clears its cookie. */
  async close(signedIn: SignedInSession): Promise<string> {
    await this.#store.deleteSession(signedIn.idHash);
    return this.clearingCookie();
  }

  clearingCookie(): string {
    return cookieHeader(this.#cookies.session, '', 0, this.#cookies.secure);
  }
}

/** The names a loopback address goes by in a browser's address bar. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'] as const;

/**
 * The origins the account area's pages are served from: `PUBLIC_BASE_URL`'s, and when that is a
 * loopback address, the same scheme and port under each loopback name (a local operator may open
 * `localhost` as well as `127.0.0.1`). Never the origin a request says it was addressed to: its
 * `Host` header is the client's to write, so trusting it let a forged Host with a matching Origin
 * through.
 */
export function accountOrigins(publicBaseUrl: string): ReadonlySet<string> {
  const url = new URL(publicBaseUrl);
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(url.hostname)) return new Set([url.origin]);
  return new Set(LOOPBACK_HOSTS.map((host) => {
    const loopback = new URL(url);
    loopback.hostname = host;
    return loopback.origin;
  }));
}

/**
 * A state-changing request must come from a page of this origin (OWASP's "verify origin with
 * standard headers"): `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`, and
 * `Origin` must be one of `trusted` (see {@link accountOrigins}). A request with neither header is
 * refused: every browser that can carry our cookie sends `Origin` on a POST, so only non-browser
 * clients, which have no session to abuse, are refused by that.
 */
export function requireSameOrigin(ctx: GatewayContext, trusted: ReadonlySet<string>): void {
  const site = ctx.get('sec-fetch-site');
  const origin = ctx.get('origin');
  const fromHere = origin === '' ? site === 'same-origin' : trusted.has(origin);
  if ((site !== '' && site !== 'same-origin') || !fromHere) {
    throw new ApiError('cross_origin_refused', 'This request must come from the account area itself (its Origin is not this site).');
  }
}

/** The synchronizer token: the session's CSRF token, which only pages of this origin can read, in a header. */
export function requireCsrfToken(ctx: GatewayContext, session: Session): void {
  const presented = ctx.get(CSRF_HEADER);
  if (presented === '' || !sameToken(presented, session.csrfToken)) {
    throw new ApiError('csrf_token_invalid', `Missing or wrong ${CSRF_HEADER} header: reload the account page and try again.`);
  }
}
