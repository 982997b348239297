import { TEMPLATE_ID } from '../../accounts/account-model.ts';
import type { AccountStore } from '../../accounts/account-store.ts';
import { Reply, type EndpointDefinition } from '../../http/endpoint.ts';
import { sessionActor } from '../account-keys.ts';

const TEMPLATES_PATH = '/account/api/templates';
type TemplateAudit = 'template_created' | 'template_changed' | 'template_deleted';

/** Each `/v1/templates` operation the area offers, and what its success writes to the audit log. */
const OFFERED: Readonly<Record<string, TemplateAudit | undefined>> = { listTemplates: undefined, createTemplate: 'template_created', updateTemplate: 'template_changed', deleteTemplate: 'template_deleted' };

/**
 * The account's templates, behind the session: the same operations (schemas, store, plan limit,
 * answers) as `/v1/templates`, run as the session's account (`session_<account>`: no key, so no
 * key's usage). Changes made here are audited as the session's, as key changes are.
 */
export function accountTemplateEndpoints(templateOperations: readonly EndpointDefinition[], store: Pick<AccountStore, 'audit' | 'getTemplate'>): EndpointDefinition[] {
  return Object.entries(OFFERED).map(([operationId, audit]) => {
    const operation = templateOperations.find((candidate) => candidate.operationId === operationId);
    if (!operation) throw new Error(`The account area's template routes need the ${operationId} operation.`);
    const { scope: _keyScope, ...rest } = operation;
    return {
      ...rest,
      path: operation.path.replace('/v1/templates', TEMPLATES_PATH),
      authenticated: false,
      session: { signedIn: 'required', asKey: { idPrefix: 'session', name: 'account area' } },
      handle: async (input) => {
        const { session } = input.request.signedIn!;
        const id = (input.params as { id?: string }).id ?? '';
        // A deleted template's name, for the audit line, while it still exists (a malformed id is the operation's 400).
        const before = audit === 'template_deleted' && TEMPLATE_ID.test(id) ? await store.getTemplate(session.accountId, id) : undefined;
        const result = await operation.handle(input);
        if (audit === undefined || (result instanceof Reply && result.status >= 400)) return result;
        const template = audit === 'template_deleted' ? { id, name: before?.name ?? '' } : ((result instanceof Reply ? result.body : result) as { id: string; name: string });
        await store.audit({ at: new Date().toISOString(), accountId: session.accountId, type: audit, actor: sessionActor(session), detail: { template: template.id, name: template.name } });
        return result;
      },
    };
  });
}
