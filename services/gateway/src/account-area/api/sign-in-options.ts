import { z } from 'zod';
import { defineEndpoint } from '../../http/endpoint.ts';
import { SIGN_IN_TAG, type AccountApiParts } from './account-api-parts.ts';

const signInOptionsSchema = z.object({
  discord: z.boolean().meta({ description: 'Whether "Sign in with Discord" is offered (the OAuth client is configured).' }),
  signedIn: z.boolean().meta({ description: 'Whether this browser already has a live session.' }),
});

/** What the sign-in page offers, and whether it can go straight to the account page. */
export function signInOptionsEndpoint(parts: Pick<AccountApiParts, 'settings'>) {
  return defineEndpoint({
    operationId: 'getSignInOptions',
    methods: ['GET'],
    path: '/account/api/sign-in-options',
    summary: 'Sign-in options',
    description: 'The ways in this gateway offers; called by the sign-in page before anyone is signed in.',
    tags: [SIGN_IN_TAG],
    authenticated: false,
    session: { signedIn: 'optional' },
    responses: { 200: { description: 'The options.', schema: signInOptionsSchema, example: { discord: false, signedIn: false } } },
    handle: ({ request }) => ({ discord: parts.settings.discord !== undefined, signedIn: request.signedIn !== undefined }),
  });
}
