import { Router } from '@koa/router';
import type { ApiKeyStore } from '../auth/api-key-store.ts';
import { routerPath, type EndpointDefinition, type HttpMethod } from '../endpoints/endpoint.ts';
import { authenticate } from './authenticate.ts';
import type { MediaStore } from '@utility-api/media-store';
import { mountDocsRoutes, type PublishedDocs } from './docs-routes.ts';
import { endpointRoute } from './endpoint-route.ts';
import type { GatewayState } from './gateway-state.ts';
import { mountHealthRoutes, type HealthRouteParts } from './health-routes.ts';
import { mountMediaRoutes } from './media-routes.ts';

export interface RouterParts {
  endpoints: readonly EndpointDefinition[];
  keys: ApiKeyStore;
  docs: PublishedDocs;
  media: MediaStore;
  health: HealthRouteParts;
}

/** A thin table: each endpoint definition becomes one route, behind the key check when it needs one. */
export function buildRouter(parts: RouterParts): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const requireKey = authenticate(parts.keys);
  for (const endpoint of parts.endpoints) {
    const route = endpointRoute(endpoint);
    const middleware = endpoint.authenticated ? [requireKey, route] : [route];
    // GET routes answer HEAD too, as the router does for every GET.
    const methods = endpoint.methods.filter((method) => method !== 'HEAD' || !endpoint.methods.includes('GET'));
    router.register(routerPath(endpoint.path), methods.map((method: HttpMethod) => method.toLowerCase()), middleware);
  }
  mountDocsRoutes(router, parts.docs);
  mountMediaRoutes(router, parts.media);
  mountHealthRoutes(router, parts.health);
  return router;
}
