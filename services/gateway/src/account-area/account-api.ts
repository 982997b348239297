import type { AccountStore } from '../accounts/account-store.ts';
import type { Plans } from '../accounts/plans.ts';
import type { ApiKeyVerifier } from '../auth/key-verifier.ts';
import type { EndpointDefinition } from '../http/endpoint.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../http/openapi-document.ts';
import type { RateLimits } from '../auth/rate-limits.ts';
import type { AccountAreaSettings } from './account-area-settings.ts';
import { AccountKeys } from './account-keys.ts';
import type { AccountApiParts } from './api/account-api-parts.ts';
import { auditLogEndpoint } from './api/audit-log.ts';
import { createKeyEndpoint } from './api/create-key.ts';
import { listKeysEndpoint } from './api/list-keys.ts';
import { meEndpoint } from './api/me.ts';
import { playgroundPreviewEndpoint } from './api/playground-preview.ts';
import { revokeKeyEndpoint } from './api/revoke-key.ts';
import { rollKeyEndpoint } from './api/roll-key.ts';
import { signInLinkEndpoint } from './api/sign-in-link.ts';
import { signInOptionsEndpoint } from './api/sign-in-options.ts';
import { signOutEndpoint } from './api/sign-out.ts';
import { signOutEverywhereEndpoint } from './api/sign-out-everywhere.ts';
import { accountTemplateEndpoints } from './api/templates.ts';
import { usageEndpoint } from './api/usage.ts';
import { AccountSessions, accountOrigins } from './sessions.ts';

export interface AccountAreaParts {
  store: AccountStore;
  plans: Plans;
  settings: AccountAreaSettings;
  /** Cookies are `__Host-` and `Secure` when this is https; state-changing requests must come from its origin. */
  publicBaseUrl: string;
  /** This gateway's key checks: a key revoked here is refused by it before the area answers. */
  keys?: Pick<ApiKeyVerifier, 'revokedHere' | 'startupKeys'> | undefined;
  /** The card operation the playground previews with a session (absent in an app without the render path). */
  previewEndpoint?: EndpointDefinition | undefined;
  /** The `/v1/templates` operations, which the area's template routes run with the session in place of a key. */
  templateEndpoints?: readonly EndpointDefinition[] | undefined;
}

/** The account area's JSON endpoints, the sessions they run with, and their internal OpenAPI document. */
export interface AccountApi {
  parts: AccountAreaParts;
  sessions: AccountSessions;
  /** The origins a changing request may come from (see accountOrigins). */
  trustedOrigins: ReadonlySet<string>;
  endpoints: readonly EndpointDefinition[];
  /** `/account/api/openapi.json`: for the area's own pages and tests, not part of the public API. */
  document: OpenApiDocument;
}

/**
 * `/account/api/*`, the JSON the area's pages call, as a thin table: endpoints of the same machinery
 * as `/v1` (one file each under `api/`, schema plus handler), with the browser session as their
 * credential instead of a key (see `sessionCredential`).
 */
export function accountApi(parts: AccountAreaParts, rateLimits: RateLimits | undefined): AccountApi {
  const sessions = new AccountSessions(parts.store, parts.publicBaseUrl);
  const api: AccountApiParts = {
    store: parts.store,
    plans: parts.plans,
    settings: parts.settings,
    sessions,
    keys: new AccountKeys(parts.store, parts.settings.keyRollGraceMs),
    gatewayKeys: parts.keys,
    rateLimits,
  };
  const endpoints = [
    signInOptionsEndpoint(api),
    signInLinkEndpoint(api),
    meEndpoint(api),
    listKeysEndpoint(api),
    createKeyEndpoint(api),
    rollKeyEndpoint(api),
    revokeKeyEndpoint(api),
    usageEndpoint(api),
    auditLogEndpoint(api),
    signOutEndpoint(api),
    signOutEverywhereEndpoint(api),
    ...(parts.previewEndpoint ? [playgroundPreviewEndpoint(parts.previewEndpoint)] : []),
    ...(parts.templateEndpoints ? accountTemplateEndpoints(parts.templateEndpoints, parts.store) : []),
  ];
  const document = buildOpenApiDocument(endpoints, {
    title: 'Utility API account area (internal)',
    version: '1.0.0',
    description: "The JSON the account area's pages call. Internal: it changes with the pages, and is no part of the public API (`/v1/openapi.json`).",
    serverUrl: parts.publicBaseUrl,
    rateLimited: rateLimits !== undefined,
    credential: 'session',
  });
  return { parts, sessions, trustedOrigins: accountOrigins(parts.publicBaseUrl), endpoints, document };
}
