import type { KeyScope } from '../http/key-scopes.ts';
import type { Quotas } from './quotas.ts';
import type { UsageMeter } from './usage-meter.ts';
import type { EndpointDefinition } from '../http/endpoint.ts';
import { ApiError } from '../http/api-error.ts';
import { operationIdOf } from '../http/openapi-document.ts';
import { statusOfError, type GuardStep } from '../http/request-pipeline.ts';

const SCOPE_NAMES: Readonly<Record<KeyScope, string>> = { cards: 'card endpoints', utility: 'utility endpoints' };

/** `403 key_scope_forbidden`: the key was made for other endpoints; the message names the scope this one needs. */
function keyScopeForbidden(scope: KeyScope, keyScopes: readonly KeyScope[]): ApiError {
  return new ApiError(
    'key_scope_forbidden',
    `This key may call only the ${keyScopes.map((granted) => SCOPE_NAMES[granted]).join(' and ')}; this endpoint needs a key with the "${scope}" scope (${SCOPE_NAMES[scope]}).`,
  );
}

/**
 * The operation id each method of the endpoint is counted under: the document's own
 * (`statusGet`, `statusPost`...), and for HEAD on a GET-only endpoint the GET's.
 */
function usageLabels(endpoint: EndpointDefinition): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  for (const method of endpoint.methods) labels.set(method, operationIdOf(endpoint, method));
  if (!labels.has('HEAD') && labels.has('GET')) labels.set('HEAD', labels.get('GET')!);
  return labels;
}

/**
 * What an authenticated endpoint does with the key's account, right after the key check and
 * before the rate budget is spent:
 * - scopes: a key whose scopes lack the endpoint's gets `403 key_scope_forbidden` (it spends no
 *   rate budget and holds no card slot; it is counted, as a request and an error);
 * - quota (when limits are on): an account over its monthly requests quota gets `429
 *   quota_exceeded`, counted as `rate_limited` but not as a request, so refusals do not push the
 *   account further over (GET /v1/account is never refused: it is how a caller learns where the
 *   quota stands); the cards quota is taken per card by the card admission (CardAdmission);
 * - usage: every other request counts as `requests` of its operation id as it is admitted (so the
 *   quota is exact within one gateway), then its answer as `rate_limited` (429), `errors` (any
 *   other 4xx or 5xx) or, for a card answered 200, `cards` of the stored card's format.
 * Each is a Map increment in the UsageMeter; nothing here waits on the store except the first
 * request of an account this process has not seen yet (Quotas).
 */
export function accountGuard(endpoint: EndpointDefinition, meter: UsageMeter, quotas: Quotas | undefined): GuardStep {
  const labels = usageLabels(endpoint);
  const fallbackLabel = endpoint.operationId;
  const { scope } = endpoint;
  const card = scope === 'cards';
  const quota = endpoint.limits?.outsideQuota === true ? undefined : quotas;
  return async (ctx, next) => {
    const key = ctx.state.apiKey!;
    const { accountId } = key;
    const label = labels.get(ctx.method) ?? fallbackLabel;
    if (scope !== undefined && key.scopes !== undefined && !key.scopes.includes(scope)) {
      meter.count(accountId, key.id, 'requests', label);
      meter.count(accountId, key.id, 'errors', label);
      throw keyScopeForbidden(scope, key.scopes);
    }
    if (quota) {
      const pending = quota.requestRefusal(accountId);
      // Awaited only on an account's first request here and when its lease runs out.
      const refusal = pending instanceof Promise ? await pending : pending;
      if (refusal) {
        meter.count(accountId, key.id, 'rate_limited', label);
        ctx.state.log.info({ accountId }, 'quota exceeded');
        throw refusal;
      }
    }
    meter.count(accountId, key.id, 'requests', label);
    let status = 500;
    try {
      await next(ctx);
      status = ctx.status;
    } catch (error) {
      status = statusOfError(error);
      throw error;
    } finally {
      if (status === 429) meter.count(accountId, key.id, 'rate_limited', label);
      else if (status >= 400) meter.count(accountId, key.id, 'errors', label);
      else if (card && ctx.state.cardFormat !== undefined) meter.count(accountId, key.id, 'cards', ctx.state.cardFormat);
    }
  };
}
