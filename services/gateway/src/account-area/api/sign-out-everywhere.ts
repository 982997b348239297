import { defineEndpoint, Reply } from '../../http/endpoint.ts';
import { sessionActor } from '../account-keys.ts';
import { SIGN_IN_TAG, type AccountApiParts } from './account-api-parts.ts';
import { clearedCookie, signedOutSchema } from './signed-out.ts';

/** Ends every session of the account, in every browser: what to do after a shared computer or a lost phone. */
export function signOutEverywhereEndpoint(parts: Pick<AccountApiParts, 'store' | 'sessions'>) {
  return defineEndpoint({
    operationId: 'signOutEverywhere',
    methods: ['POST'],
    path: '/account/api/sign-out-everywhere',
    summary: 'Sign out everywhere',
    description: 'Ends every session of the account, this one included.',
    tags: [SIGN_IN_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'Signed out everywhere.', schema: signedOutSchema, headers: clearedCookie } },
    handle: async ({ request }) => {
      const { session } = request.signedIn!;
      const ended = await parts.store.deleteSessions(session.accountId);
      await parts.store.audit({ at: new Date().toISOString(), accountId: session.accountId, type: 'signed_out_everywhere', actor: sessionActor(session), detail: { sessions: String(ended) } });
      return new Reply(200, { signedOut: true, sessions: ended, location: '/account/sign-in' }, { 'Set-Cookie': parts.sessions.clearingCookie() });
    },
  });
}
