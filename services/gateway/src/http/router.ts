import { Router } from '@koa/router';
import type { ApiKeyStore } from '../auth/api-key-store.ts';
import { routerPath, type EndpointDefinition } from '../endpoints/endpoint.ts';
import { authenticate } from './authenticate.ts';
import { limitCardsInFlight } from '../rate-limits/cards-in-flight.ts';
import { limitRequests } from '../rate-limits/limit-requests.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
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
  /** Undefined when `RATE_LIMITS=off`. */
  rateLimits: RateLimits | undefined;
}

/** A thin table: each endpoint definition becomes one route, behind the key check when it needs one. */
export function buildRouter(parts: RouterParts): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const { rateLimits } = parts;
  const requireKey = authenticate(parts.keys, rateLimits?.authFailures);
  for (const endpoint of parts.endpoints) {
    const route = endpointRoute(endpoint);
    // GET routes answer HEAD too, as the router does for every GET.
    const methods = endpoint.methods.filter((method) => method !== 'HEAD' || !endpoint.methods.includes('GET'));
    for (const method of methods) {
      // Key first, then its budget, then its card slot, then the endpoint: a refused request costs no parsing.
      const limit =
        rateLimits && endpoint.authenticated
          ? [
              limitRequests(rateLimits.requests, endpoint.limits?.budget ?? 'default'),
              ...(endpoint.limits?.holdsCardSlot === true ? [limitCardsInFlight(rateLimits.cardsInFlight)] : []),
            ]
          : [];
      const middleware = endpoint.authenticated ? [requireKey, ...limit, route] : [route];
      router.register(routerPath(endpoint.path), [method.toLowerCase()], middleware);
    }
  }
  mountDocsRoutes(router, parts.docs);
  mountMediaRoutes(router, parts.media);
  mountHealthRoutes(router, parts.health);
  return router;
}
