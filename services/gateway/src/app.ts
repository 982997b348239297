import type { Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import Koa, { type Middleware } from 'koa';
import type { ApiKeyStore } from './auth/api-key-store.ts';
import type { EndpointDefinition } from './endpoints/endpoint.ts';
import { errorHandler } from './http/error-handler.ts';
import { fallbackResponses } from './http/fallback-responses.ts';
import type { GatewayState } from './http/gateway-state.ts';
import type { HealthRouteParts } from './http/health-routes.ts';
import { requestContext } from './http/request-context.ts';
import { responseHeaders } from './http/response-headers.ts';
import { buildRouter } from './http/router.ts';
import { apiDescription } from './openapi/api-description.ts';
import { renderDocsPage } from './openapi/docs-page.ts';
import { buildOpenApiDocument } from './openapi/openapi-document.ts';
import type { RateLimits, RateLimitSettings } from './rate-limits/rate-limits.ts';

export const API_VERSION = '1.0.0';

export interface GatewayAppParts {
  logger: Logger;
  keys: ApiKeyStore;
  endpoints: readonly EndpointDefinition[];
  /** Where `/media/<uuid>.png` is read from. */
  media: MediaStore;
  health: HealthRouteParts;
  /** Runs right after the request context, so it times everything else. */
  metricsMiddleware: Middleware<GatewayState>;
  publicBaseUrl: string;
  /** Trust `X-Forwarded-*` from a reverse proxy in front of the gateway. */
  trustProxy: boolean;
  /** Undefined when `RATE_LIMITS=off`. */
  rateLimits: RateLimits | undefined;
  /** The configured budgets, for the documentation. */
  rateLimitSettings: RateLimitSettings;
}

export function createGatewayApp(parts: GatewayAppParts): Koa<GatewayState> {
  const document = buildOpenApiDocument(parts.endpoints, {
    title: 'Utility API',
    version: API_VERSION,
    description: apiDescription(parts.rateLimitSettings),
    serverUrl: parts.publicBaseUrl,
    rateLimited: parts.rateLimits !== undefined,
  });
  const router = buildRouter({
    endpoints: parts.endpoints,
    keys: parts.keys,
    media: parts.media,
    health: parts.health,
    rateLimits: parts.rateLimits,
    docs: { openApiJson: JSON.stringify(document), html: renderDocsPage(document) },
  });

  // Behind one trusted proxy, the client is the last X-Forwarded-For entry (the one our proxy added):
  // earlier entries come from the client and would let it pick its own address for the limits.
  const app = new Koa<GatewayState>({ proxy: parts.trustProxy, maxIpsCount: 1 });
  // Koa would print every error to stderr on top of our structured log line.
  app.silent = true;
  app.use(requestContext(parts.logger));
  app.use(parts.metricsMiddleware);
  app.use(errorHandler());
  app.use(responseHeaders());
  app.use(fallbackResponses());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
