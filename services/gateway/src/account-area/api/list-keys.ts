import { z } from 'zod';
import { defineEndpoint } from '../../http/endpoint.ts';
import { KEYS_TAG, type AccountApiParts } from './account-api-parts.ts';

const nullableTime = z.string().nullable();

/** A key as the area lists it (KeyView): public fields only, never the hash. */
const keyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  createdAt: nullableTime,
  revokedAt: nullableTime,
  rolledAt: nullableTime,
  previousValidUntil: nullableTime.meta({ description: 'Until when the secret before the last roll still works, while it does.' }),
  lastUsedAt: nullableTime,
  requestsToday: z.number().int(),
  startup: z.enum(['API_KEYS', 'this run']).optional().meta({ description: "A start-up key of the owner, changed only where it comes from." }),
});

export function listKeysEndpoint(parts: Pick<AccountApiParts, 'keys' | 'gatewayKeys'>) {
  return defineEndpoint({
    operationId: 'listKeys',
    methods: ['GET'],
    path: '/account/api/keys',
    summary: 'List keys',
    description: "The account's keys, revoked ones included, with when each was last used and its requests today; the owner's start-up keys first.",
    tags: [KEYS_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'The keys.', schema: z.object({ keys: z.array(keyViewSchema) }) } },
    handle: async ({ request }) => ({ keys: await parts.keys.list(request.signedIn!.session.accountId, new Date(), parts.gatewayKeys?.startupKeys) }),
  });
}
