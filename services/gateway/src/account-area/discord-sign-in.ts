import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { storedDisplayName } from '@utility-api/infra';
import type { Account } from '../accounts/account-model.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { DiscordOAuthSettings } from './account-area-settings.ts';
import { sameToken } from './sessions.ts';

/** A sign-in started at Discord must come back within this (then the state is gone: start again). */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** Discord answering slower than this is "Discord is unavailable", not a hung sign-in page. */
const DISCORD_TIMEOUT_MS = 10_000;
const STATE = /^[A-Za-z0-9_-]{43}$/;

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

/** What is stored with a state until its callback: the PKCE verifier, and the hash of the browser's nonce. */
const pendingSchema = z.object({ verifier: z.string().regex(/^[A-Za-z0-9_-]{43}$/), nonceHash: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * Sends the browser to Discord: authorization code flow with PKCE (S256) and a `state`. The state
 * is stored (hashed) with the verifier and the hash of a nonce that goes into a short-lived
 * cookie of this browser, so a callback is accepted only in the browser that started it (a link
 * to our callback with someone else's code and state, login CSRF, fails) and only once.
 */
export async function startDiscordSignIn(store: AccountStore, settings: DiscordOAuthSettings, now: Date): Promise<{ location: string; nonce: string }> {
  const state = randomToken();
  const nonce = randomToken();
  const verifier = randomToken();
  const pending: z.infer<typeof pendingSchema> = { verifier, nonceHash: sha256hex(nonce) };
  await store.putOnce('oauth-state', sha256hex(state), JSON.stringify(pending), new Date(now.getTime() + OAUTH_STATE_TTL_MS));
  const url = new URL(settings.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: settings.redirectUrl,
    // `identify` only: the user's id and name, never their email or servers.
    scope: 'identify',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { location: url.toString(), nonce };
}

export interface DiscordUser {
  id: string;
  name: string;
}

/** Why a callback did not sign anyone in; each has its own message on the sign-in page. */
export type SignInFailure = 'denied' | 'state' | 'code' | 'discord_unavailable';

const tokenAnswerSchema = z.object({ access_token: z.string().min(1).max(4096), token_type: z.string() });
const userSchema = z.object({
  id: z.string().regex(/^\d{17,20}$/),
  username: z.string().max(100),
  global_name: z.string().max(100).nullish(),
});

/**
 * Checks the callback's state against this browser's nonce (taking the state: a replay finds
 * nothing), trades the code for a token with the verifier and the client secret, and reads who
 * the user is. Discord refusing the code is `code`; Discord unreachable, slow or answering
 * nonsense is `discord_unavailable`.
 */
export async function finishDiscordSignIn(
  store: AccountStore,
  settings: DiscordOAuthSettings,
  callback: { code: string | undefined; state: string | undefined; error: string | undefined; nonce: string | undefined },
  now: Date,
): Promise<DiscordUser | SignInFailure> {
  // The state is taken whatever happens, so a denied or failed attempt cannot be retried with it.
  const pendingJson = callback.state !== undefined && STATE.test(callback.state) ? await store.takeOnce('oauth-state', sha256hex(callback.state), now) : undefined;
  if (callback.error !== undefined) return 'denied';
  const pending = pendingJson === undefined ? undefined : pendingSchema.safeParse(parseJson(pendingJson));
  if (!pending?.success || callback.nonce === undefined || !sameToken(sha256hex(callback.nonce), pending.data.nonceHash)) return 'state';
  if (callback.code === undefined || callback.code === '' || callback.code.length > 512) return 'code';

  let token: z.infer<typeof tokenAnswerSchema>;
  try {
    const response = await fetch(settings.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.code,
        redirect_uri: settings.redirectUrl,
        code_verifier: pending.data.verifier,
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS),
    });
    // 400 is OAuth's invalid_grant and kin: a used, expired or foreign code. Anything else is Discord's trouble.
    if (response.status === 400 || response.status === 401) return 'code';
    const parsed = tokenAnswerSchema.safeParse(response.ok ? await response.json() : undefined);
    if (!parsed.success || parsed.data.token_type.toLowerCase() !== 'bearer') return 'discord_unavailable';
    token = parsed.data;
  } catch {
    return 'discord_unavailable';
  }
  try {
    const response = await fetch(`${settings.apiBaseUrl}/users/@me`, {
      headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS),
    });
    const parsed = userSchema.safeParse(response.ok ? await response.json() : undefined);
    if (!parsed.success) return 'discord_unavailable';
    const name = (parsed.data.global_name ?? parsed.data.username).trim();
    return { id: parsed.data.id, name: name === '' ? `Discord user ${parsed.data.id}` : name };
  } catch {
    return 'discord_unavailable';
  }
}

/**
 * The account of a Discord user, made on their first sign-in. The id is derived from the Discord
 * id and createAccount keeps the first of two racing sign-ins, so the same person never gets two.
 */
export async function accountForDiscordUser(store: AccountStore, user: DiscordUser, plan: string, now: Date): Promise<{ account: Account; created: boolean }> {
  const existing = await store.accountByDiscordId(user.id);
  if (existing) return { account: existing, created: false };
  // Stored clean (no controls, bidi overrides or lone surrogates), cut to the 100 UTF-16 units an
  // account name holds and cleaned again, as the cut may split a surrogate pair.
  const name = storedDisplayName(storedDisplayName(user.name).slice(0, 100)) || `Discord user ${user.id}`;
  const candidate: Account = { id: `acct_d${user.id}`, name, discordUserId: user.id, plan, createdAt: now.toISOString() };
  const account = await store.createAccount(candidate);
  return { account, created: account.createdAt === candidate.createdAt && account.id === candidate.id };
}

/** A stored value that is not JSON (a foreign writer) is no pending sign-in, not a 500. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
