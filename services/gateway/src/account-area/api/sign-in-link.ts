import { z } from 'zod';
import { redeemSignInLink } from '../../accounts/sign-in-links.ts';
import { defineEndpoint, Reply } from '../../http/endpoint.ts';
import { ApiError } from '../../http/api-error.ts';
import { clientAddressKey } from '../../auth/rate-limits.ts';
import { ACCOUNT_BODY_BYTES, SIGN_IN_TAG, type AccountApiParts } from './account-api-parts.ts';

const linkBodySchema = z.strictObject({ token: z.string().max(100).meta({ description: 'What follows `#token=` in the link.' }) });
const signedInSchema = z.object({ signedIn: z.literal(true), location: z.string().meta({ description: 'Where the page goes next.' }) });

function tooManySignInsError(waitMs: number): ApiError {
  return new ApiError('rate_limited', `Too many failed sign-in attempts from your address; retry in ${Math.ceil(waitMs / 1000)} s.`, { retryAfterSeconds: waitMs / 1000 });
}

/**
 * Redeems a one-time sign-in link. A link that does not work counts against the address's
 * failed-authentication budget (RATE_LIMIT_AUTH_FAILURES, shared with wrong API keys, so guessing
 * links and guessing keys draw from one budget); an address past it is refused before the link is
 * looked at.
 */
export function signInLinkEndpoint(parts: Pick<AccountApiParts, 'store' | 'sessions' | 'rateLimits'>) {
  const { store, sessions, rateLimits } = parts;
  return defineEndpoint({
    operationId: 'signInWithLink',
    methods: ['POST'],
    path: '/account/api/sign-in/link',
    summary: 'Sign in with a one-time link',
    description: 'Each link works once, for 15 minutes (`./run start` prints one for the local owner, `./run keys` makes more). Answers with the session cookie.',
    tags: [SIGN_IN_TAG],
    authenticated: false,
    session: { signedIn: 'optional' },
    body: linkBodySchema,
    maxBodyBytes: ACCOUNT_BODY_BYTES,
    responses: {
      200: { description: 'Signed in: `Set-Cookie` holds the session.', schema: signedInSchema, headers: { 'Set-Cookie': 'The session cookie (HttpOnly, SameSite=Lax; Secure and `__Host-` over https).' } },
      400: { description: '', codes: ['sign_in_link_invalid', 'invalid_request', 'malformed_body'] },
      429: { description: 'Counted per address, with wrong API keys.', codes: ['rate_limited'] },
    },
    handle: async ({ body, request }) => {
      const address = clientAddressKey(request.clientAddress);
      const blocked = rateLimits?.authBlockedFor(address) ?? 0;
      if (blocked > 0) throw tooManySignInsError(blocked);
      const now = new Date();
      const accountId = await redeemSignInLink(store, body.token, now);
      if (accountId === undefined) {
        const wait = rateLimits ? await rateLimits.recordAuthFailure(address) : 0;
        if (wait > 0) throw tooManySignInsError(wait);
        throw new ApiError('sign_in_link_invalid', 'This sign-in link was already used or has expired. Each link works once, for 15 minutes: ask for a new one.');
      }
      const cookie = await sessions.signIn(request.signedIn?.idHash, accountId, 'link', now);
      return new Reply(200, { signedIn: true, location: '/account' }, { 'Set-Cookie': cookie });
    },
  });
}
