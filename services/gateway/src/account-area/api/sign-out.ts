import { defineEndpoint, Reply } from '../../http/endpoint.ts';
import { sessionActor } from '../account-keys.ts';
import { SIGN_IN_TAG, type AccountApiParts } from './account-api-parts.ts';
import { clearedCookie, signedOutSchema } from './signed-out.ts';

/** Ends this browser's session. */
export function signOutEndpoint(parts: Pick<AccountApiParts, 'store' | 'sessions'>) {
  return defineEndpoint({
    operationId: 'signOut',
    methods: ['POST'],
    path: '/account/api/sign-out',
    summary: 'Sign out',
    description: "Ends this browser's session.",
    tags: [SIGN_IN_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'Signed out.', schema: signedOutSchema, headers: clearedCookie } },
    handle: async ({ request }) => {
      const signedIn = request.signedIn!;
      const cookie = await parts.sessions.close(signedIn);
      await parts.store.audit({ at: new Date().toISOString(), accountId: signedIn.session.accountId, type: 'signed_out', actor: sessionActor(signedIn.session), detail: {} });
      return new Reply(200, { signedOut: true, location: '/account/sign-in' }, { 'Set-Cookie': cookie });
    },
  });
}
