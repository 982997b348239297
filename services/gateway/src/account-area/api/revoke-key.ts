import { z } from 'zod';
import { defineEndpoint } from '../../http/endpoint.ts';
import { KEYS_TAG, type AccountApiParts } from './account-api-parts.ts';
import { keyIdParams, ownKeyId } from './key-id.ts';

const revokedKeySchema = z.object({ id: z.string(), prefix: z.string(), revokedAt: z.string().nullable() });

export function revokeKeyEndpoint(parts: Pick<AccountApiParts, 'keys' | 'gatewayKeys'>) {
  return defineEndpoint({
    operationId: 'revokeKey',
    methods: ['POST'],
    path: '/account/api/keys/{id}/revoke',
    params: keyIdParams,
    summary: 'Revoke a key',
    description: 'The key stops working: at once on this gateway, on the others within their key poll (KEY_POLL_INTERVAL_MS). Revoking a revoked key answers it as it is.',
    tags: [KEYS_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: {
      200: { description: 'The revoked key.', schema: revokedKeySchema },
      404: { description: '', codes: ['key_not_found'] },
    },
    handle: async ({ params, request }) => {
      const revoked = await parts.keys.revoke(request.signedIn!.session, ownKeyId(params.id), new Date());
      // Synchronously, before the answer: a bot told "revoked" must not be served by this gateway
      // again (others keep their poll bound, KEY_POLL_INTERVAL_MS plus one reload).
      parts.gatewayKeys?.revokedHere(revoked.id);
      return { id: revoked.id, prefix: revoked.prefix, revokedAt: revoked.revokedAt };
    },
  });
}
