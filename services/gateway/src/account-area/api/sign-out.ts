import { z } from 'zod';
import { defineEndpoint, Reply } from '../../endpoints/endpoint.ts';
import { sessionActor } from '../account-keys.ts';
import { SIGN_IN_TAG, type AccountApiParts } from './account-api-parts.ts';

const signedOutSchema = z.object({
  signedOut: z.literal(true),
  sessions: z.number().int().optional().meta({ description: 'How many sessions ended (signing out everywhere).' }),
  location: z.string().meta({ description: 'Where the page goes next.' }),
});
const clearedCookie = { 'Set-Cookie': "Clears this browser's session cookie." };

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
