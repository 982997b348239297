import { z } from 'zod';
import { defineEndpoint } from '../../http/endpoint.ts';
import { KEYS_TAG, type AccountApiParts } from './account-api-parts.ts';
import { keyIdParams, ownKeyId } from './key-id.ts';

const rolledKeySchema = z.object({
  key: z.string().meta({ description: 'The new secret: shown this once.' }),
  id: z.string(),
  prefix: z.string(),
  previousValidUntil: z.string().optional().meta({ description: 'Until when the old secret still works.' }),
});

export function rollKeyEndpoint(parts: Pick<AccountApiParts, 'keys'>) {
  return defineEndpoint({
    operationId: 'rollKey',
    methods: ['POST'],
    path: '/account/api/keys/{id}/roll',
    params: keyIdParams,
    summary: 'Roll a key',
    description: 'A new secret for the key, shown once; the old one keeps working for the grace period (KEY_ROLL_GRACE_HOURS).',
    tags: [KEYS_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: {
      200: { description: 'The new secret.', schema: rolledKeySchema },
      404: { description: '', codes: ['key_not_found'] },
      409: { description: '', codes: ['key_revoked'] },
    },
    handle: async ({ params, request }) => {
      const rolled = await parts.keys.roll(request.signedIn!.session, ownKeyId(params.id), new Date());
      return { key: rolled.key, id: rolled.record.id, prefix: rolled.record.prefix, previousValidUntil: rolled.record.previousExpiresAt };
    },
  });
}
