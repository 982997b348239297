import type { AccountApi } from './account-area/account-api.ts';
import { sessionCredential } from './account-area/session-guard.ts';
import { accountGuard } from './accounts/account-guard.ts';
import type { Quotas } from './accounts/quotas.ts';
import type { UsageMeter } from './accounts/usage-meter.ts';
import { authenticate, type ApiKeyVerifier } from './auth/key-verifier.ts';
import type { RateLimits } from './auth/rate-limits.ts';
import type { CardAdmission } from './cards/card-admission.ts';
import type { EndpointDefinition } from './http/endpoint.ts';
import { admissionRoute } from './http/endpoint-route.ts';
import type { GuardStep } from './http/request-pipeline.ts';

interface RouteGuardParts {
  keys: ApiKeyVerifier;
  /** Undefined when `RATE_LIMITS=off`. */
  rateLimits: RateLimits | undefined;
  /** Usage counting, and the monthly quotas (undefined when `RATE_LIMITS=off`). */
  usage: { meter: UsageMeter; quotas: Quotas | undefined };
  /** Each card's slot and unit of quota, taken before it is queued. */
  cardAdmission: CardAdmission;
  /** The account area's sessions and the origins its forms may come from. */
  accountArea: Pick<AccountApi, 'sessions' | 'trustedOrigins'>;
}

/**
 * What stands in front of each endpoint, in order. Key first, then its scope, requests quota and
 * usage count, then its budget, then (a card) its slot and unit of cards quota, then the endpoint:
 * a refused request costs no parsing. A signed link is its own credential (`admit` checks it in
 * place of the key header). A session endpoint (the account area's) is no key's usage and is limited
 * only where it names its limits (the playground's previews).
 */
export function routeGuards(parts: RouteGuardParts) {
  const { rateLimits, accountArea } = parts;
  const requireKey = authenticate(parts.keys, rateLimits);
  const guardsFor = (endpoint: EndpointDefinition): readonly GuardStep[] => {
    const limits = rateLimits ? [rateLimits.middleware(endpoint.limits)] : [];
    const card = endpoint.limits?.holdsCardSlot === true && parts.cardAdmission.limited ? [parts.cardAdmission.guard()] : [];
    if (endpoint.authenticated) {
      const credential = endpoint.admit ? admissionRoute({ ...endpoint, admit: endpoint.admit }) : requireKey;
      return [credential, accountGuard(endpoint, parts.usage.meter, parts.usage.quotas), ...limits, ...card];
    }
    if (endpoint.session) {
      return [sessionCredential(endpoint.session, accountArea.sessions, accountArea.trustedOrigins), ...(endpoint.limits ? [...limits, ...card] : [])];
    }
    return [];
  };
  return { requireKey, guardsFor };
}
