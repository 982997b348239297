import { Router } from '@koa/router';
import { checkReadiness } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import type { Registry } from 'prom-client';
import type { AccountApi } from '../account-area/account-api.ts';
import { mountAccountRoutes } from '../account-area/account-routes.ts';
import type { Quotas } from '../accounts/quotas.ts';
import type { UsageMeter } from '../accounts/usage-meter.ts';
import { authenticate, type ApiKeyVerifier } from '../auth/key-verifier.ts';
import { mountDocsRoutes } from '../docs/docs-routes.ts';
import type { DocsSite } from '../docs/docs-site.ts';
import { routerPath, type EndpointDefinition } from '../endpoints/endpoint.ts';
import { mountHomeRoutes } from '../home/home-routes.ts';
import { mountPlaygroundRoutes } from '../playground/playground-routes.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { CardAdmission } from '../admission/card-admission.ts';
import { accountGuard } from './account-guard.ts';
import { admissionRoute, endpointRoute } from './endpoint-route.ts';
import { mountMediaRoutes } from './media-routes.ts';
import { sessionCredential } from './session-guard.ts';
import type { GatewayState, GuardStep, NextStep } from './request-pipeline.ts';

interface HealthRouteParts {
  /** Each resolves when its dependency answers (Redis, media storage). */
  readiness: Record<string, () => Promise<void>>;
  registry: Registry;
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

interface RouterParts {
  endpoints: readonly EndpointDefinition[];
  keys: ApiKeyVerifier;
  /** The docs page with its files and the OpenAPI document, made once at boot: they only change with a deploy. */
  docs: { site: DocsSite };
  media: MediaStore;
  health: HealthRouteParts;
  /** Undefined when `RATE_LIMITS=off`. */
  rateLimits: RateLimits | undefined;
  /** `/account`: sign-in, keys and usage for people, in a browser; its JSON endpoints run behind the session. */
  accountArea: AccountApi;
  /** Usage counting, and the monthly quotas (undefined when `RATE_LIMITS=off`). */
  usage: { meter: UsageMeter; quotas: Quotas | undefined };
  /** Each card's slot and unit of quota, taken before it is queued. */
  cardAdmission: CardAdmission;
}

export const CHECK_TIMEOUT_MS = 1000;

/**
 * The endpoint behind its guard steps as one route middleware, linked once here: the router
 * composes a route's middleware list anew on every request (a dispatch closure, a bind and a
 * promise per entry), so one entry instead of four is that much less work per request.
 */
function guarded(steps: readonly GuardStep[], endpoint: NextStep): NextStep {
  return steps.reduceRight<NextStep>((next, step) => (ctx) => step(ctx, next), endpoint);
}

/**
 * A thin table: each endpoint definition becomes one route, behind the key check and its limits
 * when it needs a key, or behind the browser session for the account area's (`/account/api`);
 * then the public routes: docs, media, and the probes for orchestrators and
 * Prometheus (`/healthz` says the process answers, `/readyz` that Redis and storage do too).
 */
export function buildRouter(parts: RouterParts): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const { rateLimits } = parts;
  const requireKey = authenticate(parts.keys, rateLimits);
  const { accountArea } = parts;
  const allEndpoints = [...parts.endpoints, ...accountArea.endpoints];
  for (const endpoint of allEndpoints) {
    // Key first, then its scope, requests quota and usage count, then its budget, then (a card) its
    // slot and unit of cards quota, then the endpoint: a refused request costs no parsing.
    const accountChecks = accountGuard(endpoint, parts.usage.meter, parts.usage.quotas);
    // A signed link is its own credential: `admit` checks it in place of the key header.
    const credential = endpoint.admit ? admissionRoute({ ...endpoint, admit: endpoint.admit }) : requireKey;
    const limits = rateLimits ? [rateLimits.middleware(endpoint.limits)] : [];
    const card = endpoint.limits?.holdsCardSlot === true && parts.cardAdmission.limited ? [parts.cardAdmission.guard()] : [];
    // A session endpoint is no key's usage and is limited only where it names its limits (the playground's previews).
    const sessionGuards = endpoint.session
      ? [sessionCredential(endpoint.session, accountArea.sessions, accountArea.trustedOrigins), ...(endpoint.limits ? [...limits, ...card] : [])]
      : [];
    const guards = endpoint.authenticated ? [credential, accountChecks, ...limits, ...card] : sessionGuards;
    // GET routes answer HEAD too, as the router does for every GET.
    const methods = endpoint.methods.filter((method) => method !== 'HEAD' || !endpoint.methods.includes('GET'));
    router.register(routerPath(endpoint.path), methods.map((method) => method.toLowerCase()), [guarded(guards, endpointRoute(endpoint))]);
    // OPTIONS is a method like the others: behind the key where the endpoint is (the router would
    // otherwise answer it for everyone). The answer lists the methods; no CORS is offered.
    // Several definitions may share a path (the templates: one per method): one OPTIONS answers for all of them.
    const samePath = allEndpoints.filter((other) => other.path === endpoint.path);
    if (endpoint.authenticated && !endpoint.admit && samePath[0] === endpoint && !samePath.some((other) => other.methods.includes('OPTIONS'))) {
      const methodsHere = samePath.flatMap((other) => other.methods);
      const allow = [...new Set([...methodsHere, ...(methodsHere.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ');
      router.register(routerPath(endpoint.path), ['options'], [
        requireKey,
        (ctx) => {
          ctx.status = 204;
          ctx.set('Allow', allow);
        },
      ]);
    }
  }

  mountDocsRoutes(router, parts.docs.site);
  mountMediaRoutes(router, parts.media);
  mountPlaygroundRoutes(router);
  mountHomeRoutes(router);
  mountAccountRoutes(router, accountArea, rateLimits);

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(parts.health.readiness, CHECK_TIMEOUT_MS);
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '1');
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks };
  });
  router.get('/metrics', async (ctx) => {
    const { metricsToken, registry } = parts.health;
    if (metricsToken !== undefined && ctx.get('authorization') !== `Bearer ${metricsToken}`) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: { status: 401, code: 'unauthorized', message: 'Metrics need the METRICS_TOKEN bearer token.' }, requestId: ctx.state.requestId };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  rememberMatches(router);
  return router;
}

type RouteMatch = ReturnType<Router<GatewayState>['match']>;

/**
 * @koa/router tests every route's regular expression against every request (48 routes here, one
 * more with each new route), which measured as one of the larger costs of a light request. What a
 * path matches depends only on the path, the method and the routes, which are fixed once the
 * router is built; so the match is remembered for the paths routes were registered under, spelled
 * exactly so (a bounded set, whatever paths clients send). Any other path, such as a parameterised
 * one or another spelling of a static one, is matched as before. Called once every route is
 * registered: a route added later would not be seen on a remembered path.
 */
function rememberMatches(router: Router<GatewayState>): void {
  const registeredPaths = new Set<string>();
  for (const layer of router.stack) if (typeof layer.path === 'string') registeredPaths.add(layer.path);
  const matchAnew = router.match.bind(router);
  const remembered = new Map<string, RouteMatch>();
  router.match = (path, method) => {
    if (!registeredPaths.has(path)) return matchAnew(path, method);
    const key = `${method} ${path}`;
    let match = remembered.get(key);
    if (match === undefined) {
      match = matchAnew(path, method);
      remembered.set(key, match);
    }
    // The context keeps these lists (and a nested router would add to them): each request gets its own.
    return { path: [...match.path], pathAndMethod: [...match.pathAndMethod], route: match.route };
  };
}
