import { z } from 'zod';
import { defineEndpoint, Reply } from '../../http/endpoint.ts';
import { MAX_ACTIVE_KEYS, newKeySchema } from '../account-keys.ts';
import { ACCOUNT_BODY_BYTES, KEYS_TAG, type AccountApiParts } from './account-api-parts.ts';

const createdKeySchema = z.object({
  key: z.string().meta({ description: 'The secret: shown this once, stored only as a hash.' }),
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
});

export function createKeyEndpoint(parts: Pick<AccountApiParts, 'keys'>) {
  return defineEndpoint({
    operationId: 'createKey',
    methods: ['POST'],
    path: '/account/api/keys',
    summary: 'Create a key',
    description: `A new key of the account, for all endpoints or the listed scopes; at most ${MAX_ACTIVE_KEYS} keys that are not revoked.`,
    tags: [KEYS_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    body: newKeySchema,
    maxBodyBytes: ACCOUNT_BODY_BYTES,
    responses: {
      201: { description: 'The key, shown once.', schema: createdKeySchema },
      409: { description: '', codes: ['too_many_keys'] },
    },
    handle: async ({ body, request }) => {
      const created = await parts.keys.create(request.signedIn!.session, body, new Date());
      return new Reply(201, { key: created.key, id: created.record.id, prefix: created.record.prefix, name: created.record.name });
    },
  });
}
