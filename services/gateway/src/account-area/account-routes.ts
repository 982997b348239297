import type { CardAdmission } from '../admission/card-admission.ts';
import type { Router } from '@koa/router';
import type { Logger } from '@utility-api/infra';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { z } from 'zod';
import { OWNER_ACCOUNT_ID, TEMPLATE_ID, type Session } from '../accounts/account-model.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { Plans } from '../accounts/plans.ts';
import { createSignInLink, redeemSignInLink } from '../accounts/sign-in-links.ts';
import type { ApiKeyVerifier } from '../auth/key-verifier.ts';
import type { EndpointDefinition } from '../endpoints/endpoint.ts';
import { ApiError } from '../errors/api-error.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { drainRefusedBody } from '../http/refused-body.ts';
import type { GatewayContext, GatewayState, NextStep } from '../http/request-pipeline.ts';
import { IMMUTABLE_ASSET, loadStaticBundle, sendStaticFile, type StaticFile } from '../http/static-bundle.ts';
import { clientAddressKey, type RateLimits } from '../rate-limits/rate-limits.ts';
import { DISCORD_CALLBACK_PATH, type AccountAreaSettings } from './account-area-settings.ts';
import { AccountKeys, newKeySchema, sessionActor } from './account-keys.ts';
import { accountForDiscordUser, finishDiscordSignIn, OAUTH_STATE_TTL_MS, startDiscordSignIn } from './discord-sign-in.ts';
import { AccountSessions, accountOrigins, cookieHeader, requireCsrfToken, requireSameOrigin, tokenCookie, type SignedIn } from './sessions.ts';
import { usageReport } from './usage-report.ts';

export interface AccountAreaParts {
  store: AccountStore;
  plans: Plans;
  settings: AccountAreaSettings;
  /** Cookies are `__Host-` and `Secure` when this is https; state-changing requests must come from its origin. */
  publicBaseUrl: string;
  /** This gateway's key checks: a key revoked here is refused by it before the area answers. */
  keys?: Pick<ApiKeyVerifier, 'revokedHere' | 'startupKeys'> | undefined;
  /** The card operation the playground previews with a session (absent in an app without the render path). */
  previewEndpoint?: EndpointDefinition | undefined;
  /** The `/v1/templates` operations, which the area's template routes run with the session in place of a key. */
  templateEndpoints?: readonly EndpointDefinition[] | undefined;
}

/** Where the playground sends a signed-in account's previews: the card operation, behind the session. */
const PREVIEW_PATH = '/account/api/preview/profile-image';
/** The account's templates, behind the session: the same operations (schemas, store, plan limit, answers) as `/v1/templates`. */
const TEMPLATES_PATH = '/account/api/templates';

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
const fromPlayground = (name: string) => ({ name, from: new URL(`../playground/assets/${name}`, import.meta.url) });
/** Page and asset files. */
const ASSETS = ['account.css', 'account.js', 'api.js', 'chart.js', 'sign-in.js', 'templates.js', fromPlayground('dom.js'), fromPlayground('playground.css')];
const PAGES = ['index.html', 'sign-in.html'];
const ASSET_PREFIX = '/account/assets';

/** Request bodies of the area are a few fields: a few kilobytes is plenty. */
const MAX_BODY_BYTES = 4096;

const linkBodySchema = z.strictObject({ token: z.string().max(100) });
const KEY_ID = /^[a-z0-9]{8}$/;
const USAGE_KEY = /^[A-Za-z0-9_]{1,64}$/;
const AUDIT_SHOWN = 100;

/** The sign-in page says what went wrong by these codes (friendly text in sign-in.js). */
const signInPage = (error: string) => `/account/sign-in?error=${error}`;

/**
 * `/account`: the pages where a bot developer signs in (Discord, or a one-time link), makes and
 * manages keys and watches their usage, and `/account/api/*`, the JSON those pages call. Every
 * state-changing call checks the origin and the session's CSRF token; sign-in attempts that fail,
 * and every start of a Discord sign-in, count against the address's failed-authentication budget
 * (RATE_LIMIT_AUTH_FAILURES, shared with wrong API keys, so guessing links and guessing keys draw
 * from one budget).
 */
export function mountAccountRoutes(router: Router<GatewayState>, parts: AccountAreaParts, rateLimits: RateLimits | undefined, cardAdmission?: CardAdmission): void {
  const { store, settings } = parts;
  const sessions = new AccountSessions(store, parts.publicBaseUrl);
  const keys = new AccountKeys(store, settings.keyRollGraceMs);
  const trustedOrigins = accountOrigins(parts.publicBaseUrl);
  const { assetVersion, assets, pages } = loadStaticBundle({ folder: new URL('./assets/', import.meta.url), prefix: ASSET_PREFIX, assets: ASSETS, pages: PAGES });
  const parseBody = koaBody({
    json: true, urlencoded: false, text: false, multipart: false, jsonStrict: true, jsonLimit: MAX_BODY_BYTES,
    parsedMethods: [HttpMethodEnum.POST],
    onError: (error) => {
      throw (error as { type?: string }).type === 'entity.too.large'
        ? new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`)
        : new ApiError('malformed_body', 'The request body must be a JSON object.');
    },
  });
  const readBody = async <Schema extends z.ZodType>(ctx: GatewayContext, schema: Schema): Promise<z.output<Schema>> => {
    if (!ctx.request.is('application/json')) throw new ApiError('unsupported_media_type', 'Send the body as application/json.');
    try {
      await parseBody(ctx, async () => {});
    } catch (error) {
      // As for the API's bodies: the refused rest is read (up to a bound) so the browser gets the answer.
      if (!ctx.req.complete) {
        await drainRefusedBody(ctx.req);
        ctx.set('Connection', 'close');
      }
      throw error;
    }
    const parsed = schema.safeParse(ctx.request.body);
    if (!parsed.success) throw new ApiError('invalid_request', z.prettifyError(parsed.error));
    return parsed.data;
  };

  const page = (file: StaticFile) => (ctx: GatewayContext) => {
    ctx.set('Content-Security-Policy', ACCOUNT_CONTENT_SECURITY_POLICY);
    sendStaticFile(ctx, file, 'no-cache');
  };
  const address = (ctx: GatewayContext) => clientAddressKey(ctx.ip);
  const blockedMs = (ctx: GatewayContext) => rateLimits?.authBlockedFor(address(ctx)) ?? 0;
  const tooMany = (ms: number) =>
    new ApiError('rate_limited', `Too many failed sign-in attempts from your address; retry in ${Math.ceil(ms / 1000)} s.`, { retryAfterSeconds: ms / 1000 });
  /** Counts a failed attempt; the wait when it was one too many. */
  const failedAttempt = async (ctx: GatewayContext) => (rateLimits ? rateLimits.recordAuthFailure(address(ctx)) : 0);

  /** The session of an API call, or a 401 the page answers by going to the sign-in page. */
  const signedIn = async (ctx: GatewayContext): Promise<SignedIn> => {
    const current = await sessions.current(ctx, new Date());
    if (!current) throw new ApiError('not_signed_in', 'You are not signed in (or your session ended): sign in again at /account/sign-in.');
    return current;
  };
  /** A state-changing call: same origin, a session, and its CSRF token. */
  const changing = async (ctx: GatewayContext): Promise<SignedIn> => {
    requireSameOrigin(ctx, trustedOrigins);
    const current = await signedIn(ctx);
    requireCsrfToken(ctx, current.session);
    return current;
  };
  const signIn = async (ctx: GatewayContext, accountId: string, method: Session['method'], now: Date) => {
    await sessions.open(ctx, accountId, method, now);
    await store.audit({ at: now.toISOString(), accountId, type: 'signed_in', actor: `session:${method}`, detail: { method } });
  };

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

  router.get('/account/api/sign-in-options', async (ctx) => {
    ctx.body = { discord: settings.discord !== undefined, signedIn: (await sessions.current(ctx, new Date())) !== undefined };
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
    await signIn(ctx, account.id, 'discord', now);
    ctx.redirect('/account');
  });

  router.post('/account/api/sign-in/link', async (ctx) => {
    requireSameOrigin(ctx, trustedOrigins);
    const blocked = blockedMs(ctx);
    if (blocked > 0) throw tooMany(blocked);
    const { token } = await readBody(ctx, linkBodySchema);
    const now = new Date();
    const accountId = await redeemSignInLink(store, token, now);
    if (accountId === undefined) {
      const wait = await failedAttempt(ctx);
      if (wait > 0) throw tooMany(wait);
      throw new ApiError('sign_in_link_invalid', 'This sign-in link was already used or has expired. Each link works once, for 15 minutes: ask for a new one.');
    }
    await signIn(ctx, accountId, 'link', now);
    ctx.body = { signedIn: true, location: '/account' };
  });

  router.get('/account/api/me', async (ctx) => {
    const { session } = await signedIn(ctx);
    const account = await store.getAccount(session.accountId);
    if (!account) throw new ApiError('not_signed_in', 'Your account no longer exists.');
    ctx.body = {
      account: { id: account.id, name: account.name, plan: account.plan, discord: account.discordUserId !== null, owner: account.id === OWNER_ACCOUNT_ID },
      session: { method: session.method, createdAt: session.createdAt, expiresAt: session.expiresAt },
      csrfToken: session.csrfToken,
      keyRollGraceHours: settings.keyRollGraceMs / 3_600_000,
    };
  });

  router.get('/account/api/keys', async (ctx) => {
    const { session } = await signedIn(ctx);
    ctx.body = { keys: await keys.list(session.accountId, new Date(), parts.keys?.startupKeys) };
  });
  router.post('/account/api/keys', async (ctx) => {
    const { session } = await changing(ctx);
    const created = await keys.create(session, await readBody(ctx, newKeySchema), new Date());
    ctx.status = 201;
    ctx.body = { key: created.key, id: created.record.id, prefix: created.record.prefix, name: created.record.name };
  });
  router.post('/account/api/keys/:id/roll', async (ctx) => {
    const { session } = await changing(ctx);
    const id = keyIdParam(ctx);
    const rolled = await keys.roll(session, id, new Date());
    ctx.body = { key: rolled.key, id: rolled.record.id, prefix: rolled.record.prefix, previousValidUntil: rolled.record.previousExpiresAt };
  });
  router.post('/account/api/keys/:id/revoke', async (ctx) => {
    const { session } = await changing(ctx);
    const revoked = await keys.revoke(session, keyIdParam(ctx), new Date());
    // Synchronously, before the answer: a bot told "revoked" must not be served by this gateway
    // again (others keep their poll bound, KEY_POLL_INTERVAL_MS plus one reload).
    parts.keys?.revokedHere(revoked.id);
    ctx.body = { id: revoked.id, prefix: revoked.prefix, revokedAt: revoked.revokedAt };
  });

  router.get('/account/api/usage', async (ctx) => {
    const { session } = await signedIn(ctx);
    const account = await store.getAccount(session.accountId);
    if (!account) throw new ApiError('not_signed_in', 'Your account no longer exists.');
    const key = ctx.query.key;
    if (key !== undefined && (typeof key !== 'string' || !USAGE_KEY.test(key))) throw new ApiError('invalid_request', 'key must be one key id (uk_live_... or key_...).');
    ctx.body = await usageReport(store, parts.plans, account, key, new Date());
  });

  if (parts.previewEndpoint) {
    // The card operation itself (same schema, queue, budgets per card and answers), entered with
    // the session instead of a key: same origin, CSRF token, then the account's own preview budget
    // and card slots. Its lane in the render queue is the account's preview lane, and it is not
    // usage of any key; each preview drawn is a card of the account's monthly cards quota (the
    // card admission's one rule), given back when it is not drawn.
    const previewAs = async (ctx: GatewayContext, next: () => Promise<unknown>) => {
      const { session } = await changing(ctx);
      ctx.state.apiKey = { id: `preview_${session.accountId}`, name: 'playground preview', accountId: session.accountId };
      await next();
    };
    const budget = rateLimits ? [rateLimits.middleware({ budget: 'preview' })] : [];
    if (cardAdmission?.limited === true) budget.push(cardAdmission.guard());
    router.post(PREVIEW_PATH, previewAs, ...budget, endpointRoute(parts.previewEndpoint));
  }

  if (parts.templateEndpoints) mountTemplateRoutes(parts.templateEndpoints);
  function mountTemplateRoutes(definitions: readonly EndpointDefinition[]) {
    const operation = (operationId: string) => {
      const definition = definitions.find((candidate) => candidate.operationId === operationId);
      if (!definition) throw new Error(`The account area's template routes need the ${operationId} operation.`);
      return endpointRoute(definition);
    };
    const [list, create, update, remove] = ['listTemplates', 'createTemplate', 'updateTemplate', 'deleteTemplate'].map(operation) as [NextStep, NextStep, NextStep, NextStep];
    /** The operations read the account from the key: the session's account stands in for it (not a key, so no key's usage). */
    const asAccount = (ctx: GatewayContext, session: Session) => {
      ctx.state.apiKey = { id: `session_${session.accountId}`, name: 'account area', accountId: session.accountId };
    };
    const audit = (session: Session, type: 'template_created' | 'template_changed' | 'template_deleted', template: { id: string; name: string }) =>
      store.audit({ at: new Date().toISOString(), accountId: session.accountId, type, actor: sessionActor(session), detail: { template: template.id, name: template.name } });

    router.get(TEMPLATES_PATH, async (ctx) => {
      asAccount(ctx, (await signedIn(ctx)).session);
      await list(ctx);
    });
    router.post(TEMPLATES_PATH, async (ctx) => {
      const { session } = await changing(ctx);
      asAccount(ctx, session);
      await create(ctx);
      await audit(session, 'template_created', ctx.body as { id: string; name: string });
    });
    router.put(`${TEMPLATES_PATH}/:id`, async (ctx) => {
      const { session } = await changing(ctx);
      asAccount(ctx, session);
      await update(ctx);
      await audit(session, 'template_changed', ctx.body as { id: string; name: string });
    });
    router.delete(`${TEMPLATES_PATH}/:id`, async (ctx) => {
      const { session } = await changing(ctx);
      asAccount(ctx, session);
      // Its name, for the audit line, while it still exists (a malformed id is the operation's 400).
      const id = ctx.params.id ?? '';
      const before = TEMPLATE_ID.test(id) ? await store.getTemplate(session.accountId, id) : undefined;
      await remove(ctx);
      await audit(session, 'template_deleted', { id, name: before?.name ?? '' });
    });
  }

  router.get('/account/api/audit', async (ctx) => {
    const { session } = await signedIn(ctx);
    ctx.body = { events: await store.auditLog(session.accountId, AUDIT_SHOWN) };
  });

  router.post('/account/api/sign-out', async (ctx) => {
    const current = await changing(ctx);
    await sessions.close(ctx, current);
    await store.audit({ at: new Date().toISOString(), accountId: current.session.accountId, type: 'signed_out', actor: sessionActor(current.session), detail: {} });
    ctx.body = { signedOut: true, location: '/account/sign-in' };
  });
  router.post('/account/api/sign-out-everywhere', async (ctx) => {
    const current = await changing(ctx);
    const ended = await store.deleteSessions(current.session.accountId);
    sessions.clearCookie(ctx);
    await store.audit({ at: new Date().toISOString(), accountId: current.session.accountId, type: 'signed_out_everywhere', actor: sessionActor(current.session), detail: { sessions: String(ended) } });
    ctx.body = { signedOut: true, sessions: ended, location: '/account/sign-in' };
  });
}

function keyIdParam(ctx: GatewayContext & { params: Record<string, string | undefined> }): string {
  const id = ctx.params.id ?? '';
  if (!KEY_ID.test(id)) throw new ApiError('key_not_found', 'No such key in your account.');
  return id;
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
