import { z } from 'zod';
import { auditEventSchema } from '../../accounts/account-model.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { ACCOUNT_TAG, type AccountApiParts } from './account-api-parts.ts';

/** The latest events shown: the page lists them, it does not page through them. */
const AUDIT_SHOWN = 100;

/** The account's latest audit events: sign-ins, keys made, rolled and revoked, templates, plan changes. */
export function auditLogEndpoint(parts: Pick<AccountApiParts, 'store'>) {
  return defineEndpoint({
    operationId: 'getAuditLog',
    methods: ['GET'],
    path: '/account/api/audit',
    summary: 'Audit log',
    description: `The account's latest ${AUDIT_SHOWN} events, newest first.`,
    tags: [ACCOUNT_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'The events.', schema: z.object({ events: z.array(auditEventSchema) }) } },
    handle: async ({ request }) => ({ events: await parts.store.auditLog(request.signedIn!.session.accountId, AUDIT_SHOWN) }),
  });
}
