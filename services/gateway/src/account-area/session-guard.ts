import type { AccountSessions } from './sessions.ts';
import { requireCsrfToken, requireSameOrigin } from './sessions.ts';
import type { SessionCredential } from '../http/endpoint.ts';
import { ApiError } from '../http/api-error.ts';
import type { GuardStep } from '../http/request-pipeline.ts';

/** Methods that change nothing: a page may send them without proving where it came from. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function notSignedInError(): ApiError {
  return new ApiError('not_signed_in', 'You are not signed in (or your session ended): sign in again at /account/sign-in.');
}

/**
 * The account area's credential step, where `/v1` has the key check: a request with an unsafe
 * method must come from one of the area's own origins (checked first, so a cross-site request
 * learns nothing of the session), then the browser's session is looked up, and a request that
 * changes something needs the session's CSRF token. What it finds is `request.signedIn`; with
 * `asKey`, the session's account also stands in for a key (`ctx.state.apiKey`), for the `/v1`
 * operations and the limits that read one.
 */
export function sessionCredential(credential: SessionCredential, sessions: AccountSessions, trustedOrigins: ReadonlySet<string>): GuardStep {
  return async (ctx, next) => {
    const changing = !SAFE_METHODS.has(ctx.method);
    if (changing) requireSameOrigin(ctx, trustedOrigins);
    const signedIn = await sessions.current(ctx, new Date());
    if (signedIn === undefined) {
      if (credential.signedIn === 'required') throw notSignedInError();
    } else {
      if (changing && credential.signedIn === 'required') requireCsrfToken(ctx, signedIn.session);
      ctx.state.signedIn = signedIn;
      if (credential.asKey) {
        const { accountId } = signedIn.session;
        ctx.state.apiKey = { id: `${credential.asKey.idPrefix}_${accountId}`, name: credential.asKey.name, accountId };
      }
    }
    await next(ctx);
  };
}
