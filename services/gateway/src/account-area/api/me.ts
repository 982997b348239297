import { z } from 'zod';
import { OWNER_ACCOUNT_ID } from '../../auth/api-keys.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { ApiError } from '../../http/api-error.ts';
import { ACCOUNT_TAG, type AccountApiParts } from './account-api-parts.ts';

const meSchema = z.object({
  account: z.object({ id: z.string(), name: z.string(), plan: z.string(), discord: z.boolean(), owner: z.boolean().meta({ description: "Whether this is the gateway's local owner." }) }),
  session: z.object({ method: z.enum(['discord', 'link']), createdAt: z.string(), expiresAt: z.string() }),
  csrfToken: z.string().meta({ description: 'What changing calls send as `X-CSRF-Token`.' }),
  keyRollGraceHours: z.number().meta({ description: "Hours a rolled key's old secret keeps working." }),
});

/** The signed-in account and session, and the CSRF token the page's changing calls carry. */
export function meEndpoint(parts: Pick<AccountApiParts, 'store' | 'settings'>) {
  return defineEndpoint({
    operationId: 'getMe',
    methods: ['GET'],
    path: '/account/api/me',
    summary: 'The signed-in account',
    description: 'The account, this session, and the session\'s CSRF token (readable only by pages of this origin).',
    tags: [ACCOUNT_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'The account and session.', schema: meSchema } },
    handle: async ({ request }) => {
      const { session } = request.signedIn!;
      const account = await parts.store.getAccount(session.accountId);
      if (!account) throw new ApiError('not_signed_in', 'Your account no longer exists.');
      return {
        account: { id: account.id, name: account.name, plan: account.plan, discord: account.discordUserId !== null, owner: account.id === OWNER_ACCOUNT_ID },
        session: { method: session.method, createdAt: session.createdAt, expiresAt: session.expiresAt },
        csrfToken: session.csrfToken,
        keyRollGraceHours: parts.settings.keyRollGraceMs / 3_600_000,
      };
    },
  });
}
