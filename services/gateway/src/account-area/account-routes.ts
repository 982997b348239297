import type { Router } from '@koa/router';
import type { Logger } from '@utility-api/infra';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { createSignInLink } from '../accounts/sign-in-links.ts';
import { ApiError } from '../http/api-error.ts';
import type { GatewayContext, GatewayState } from '../http/request-pipeline.ts';
import { IMMUTABLE_ASSET, loadStaticBundle, sendStaticFile, type StaticFile } from '../http/static-bundle.ts';
import { clientAddressKey, type RateLimits } from '../auth/rate-limits.ts';
import type { AccountApi, AccountAreaParts } from './account-api.ts';
import { DISCORD_CALLBACK_PATH } from './account-area-settings.ts';
import { accountForDiscordUser, finishDiscordSignIn, OAUTH_STATE_TTL_MS, startDiscordSignIn } from './discord-sign-in.ts';
import { cookieHeader, tokenCookie } from './sessions.ts';

/**
 * The area's pages run only our own files: no inline script or style, nothing from another origin,
 * no framing, forms post nowhere (the pages use fetch), and the only way out is a link.
 */
const ACCOUNT_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The playground's, shared as they are: its stylesheet (one look for both) and its text-only DOM helper. */
const fromPlayground = (name: string) => ({ name, from: new URL(`../../web/playground/${name}`, import.meta.url) });
/** Page and asset files. */
const ASSETS = ['account.css', 'account.js', 'api.js', 'chart.js', 'sign-in.js', 'templates.js', fromPlayground('dom.js'), fromPlayground('playground.css')];
const PAGES = ['index.html', 'sign-in.html'];
const ASSET_PREFIX = '/account/assets';

/** The sign-in page says what went wrong by these codes (friendly text in sign-in.js). */
const signInPage = (error: string) => `/account/sign-in?error=${error}`;

/**
 * `/account`: the pages where a bot developer signs in (Discord, or a one-time link), makes and
 * manages keys and watches their usage, the Discord sign-in redirects, and the internal document of
 * `/account/api/*` (whose endpoints the router registers with the API's: see accountApi). Every
 * start of a Discord sign-in, and every callback with a wrong state or code, counts against the
 * address's failed-authentication budget (RATE_LIMIT_AUTH_FAILURES, shared with wrong API keys and
 * sign-in links).
 */
export function mountAccountRoutes(router: Router<GatewayState>, area: AccountApi, rateLimits: RateLimits | undefined): void {
  const { parts, sessions } = area;
  const { store, settings } = parts;
  const { assetVersion, assets, pages } = loadStaticBundle({ folder: new URL('../../web/account-area/', import.meta.url), prefix: ASSET_PREFIX, assets: ASSETS, pages: PAGES });
  const page = (file: StaticFile) => (ctx: GatewayContext) => {
    ctx.set('Content-Security-Policy', ACCOUNT_CONTENT_SECURITY_POLICY);
    sendStaticFile(ctx, file, 'no-cache');
  };
  const address = (ctx: GatewayContext) => clientAddressKey(ctx.ip);
  const blockedMs = (ctx: GatewayContext) => rateLimits?.authBlockedFor(address(ctx)) ?? 0;
  /** Counts a failed attempt; the wait when it was one too many. */
  const failedAttempt = async (ctx: GatewayContext) => (rateLimits ? rateLimits.recordAuthFailure(address(ctx)) : 0);

  const dashboard = pages.get('index.html')!;
  router.get('/account', async (ctx) => {
    if (!(await sessions.current(ctx, new Date()))) {
      ctx.redirect('/account/sign-in');
      ctx.status = 303;
      return;
    }
    page(dashboard)(ctx);
  });
  router.get('/account/sign-in', page(pages.get('sign-in.html')!));
  router.get(`${ASSET_PREFIX}/:version/:file`, (ctx) => {
    const asset = ctx.params.version === assetVersion ? assets.get(ctx.params.file ?? '') : undefined;
    if (!asset) throw new ApiError('not_found', 'No such account area file. Reload /account: it names the files of the running version.');
    sendStaticFile(ctx, asset, IMMUTABLE_ASSET);
  });

  router.get('/account/sign-in/discord', async (ctx) => {
    ctx.status = 303;
    if (!settings.discord) return ctx.redirect(signInPage('discord_off'));
    if (blockedMs(ctx) > 0) return ctx.redirect(signInPage('too_many'));
    // Each start stores a pending state for 10 minutes: starts count like failures, so one address
    // cannot fill the store with them (a person needs a few per minute at most).
    if ((await failedAttempt(ctx)) > 0) return ctx.redirect(signInPage('too_many'));
    const { location, nonce } = await startDiscordSignIn(store, settings.discord, new Date());
    ctx.append('Set-Cookie', cookieHeader(sessions.cookies.oauth, nonce, OAUTH_STATE_TTL_MS / 1000, sessions.cookies.secure));
    ctx.redirect(location);
  });

  router.get(DISCORD_CALLBACK_PATH, async (ctx) => {
    ctx.status = 303;
    if (!settings.discord) return ctx.redirect(signInPage('discord_off'));
    if (blockedMs(ctx) > 0) return ctx.redirect(signInPage('too_many'));
    const text = (name: string) => (typeof ctx.query[name] === 'string' ? ctx.query[name] : undefined);
    const now = new Date();
    const outcome = await finishDiscordSignIn(store, settings.discord, { code: text('code'), state: text('state'), error: text('error'), nonce: tokenCookie(ctx, sessions.cookies.oauth) }, now);
    // The nonce served its one callback, whatever came of it.
    ctx.append('Set-Cookie', cookieHeader(sessions.cookies.oauth, '', 0, sessions.cookies.secure));
    if (typeof outcome === 'string') {
      // A wrong state or code is someone's guess or replay; a refusal at Discord or an outage is not.
      if (outcome === 'state' || outcome === 'code') await failedAttempt(ctx);
      ctx.state.log.info({ outcome }, 'discord sign-in failed');
      return ctx.redirect(signInPage(outcome));
    }
    const { account, created } = await accountForDiscordUser(store, outcome, parts.plans.defaultPlan.name, now);
    if (created) await store.audit({ at: now.toISOString(), accountId: account.id, type: 'account_created', actor: 'session:discord', detail: { via: 'discord' } });
    ctx.append('Set-Cookie', await sessions.signIn(sessions.cookieIdHash(ctx), account.id, 'discord', now));
    ctx.redirect('/account');
  });

  router.get('/account/api/openapi.json', (ctx) => {
    ctx.body = area.document;
  });
}

/**
 * Without Discord sign-in, the only way into the area is a one-time link for the local owner:
 * printed at boot, plainly, so whoever ran `./run start` sees it (like a notebook server's token
 * link). It is a secret on purpose and works once, for 15 minutes; `./run keys` prints new ones.
 */
export async function announceOwnerSignIn(parts: AccountAreaParts, logger: Logger): Promise<{ url: string; expiresAt: Date } | undefined> {
  if (parts.settings.discord) return undefined;
  const link = await createSignInLink(parts.store, { accountId: OWNER_ACCOUNT_ID, baseUrl: parts.publicBaseUrl, now: new Date() });
  logger.info(`sign in to the account area (link works once, until ${link.expiresAt.toISOString()}): ${link.url}`);
  return link;
}
