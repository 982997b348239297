import { Router } from '@koa/router';
import type { ApiKeyStore } from '../auth/api-key-store.ts';
import type { EndpointDefinition, HttpMethod } from '../endpoints/endpoint.ts';
import { authenticate } from './authenticate.ts';
import { mountDocsRoutes, type PublishedDocs } from './docs-routes.ts';
import { endpointRoute } from './endpoint-route.ts';
import type { GatewayState } from './gateway-state.ts';

export interface RouterParts {
  endpoints: readonly EndpointDefinition[];
  keys: ApiKeyStore;
  docs: PublishedDocs;
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
    router.register(endpoint.path, methods.map((method: HttpMethod) => method.toLowerCase()), middleware);
  }
  mountDocsRoutes(router, parts.docs);
  return router;
}
