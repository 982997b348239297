import { Router } from '@koa/router';
import { checkReadiness } from '@utility-api/infra';
import type { Registry } from 'prom-client';
import { routerPath, type EndpointDefinition } from './endpoint.ts';
import { endpointRoute } from './endpoint-route.ts';
import type { GatewayState, GuardStep, NextStep } from './request-pipeline.ts';

interface HealthRouteParts {
  /** Each resolves when its dependency answers (Redis, media storage). */
  readiness: Record<string, () => Promise<void>>;
  registry: Registry;
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

/** Routes that are not endpoints of the table (pages, files, media), mounted by the capability that owns them. */
type MountRoutes = (router: Router<GatewayState>) => void;

interface RouterParts {
  /** Every endpoint: the `/v1` API's and the account area's JSON endpoints. */
  endpoints: readonly EndpointDefinition[];
  /** The steps in front of an endpoint (its credential, account checks, limits, card slot), in order: the app decides them. */
  guardsFor: (endpoint: EndpointDefinition) => readonly GuardStep[];
  /** What `OPTIONS` on a keyed path needs: the key. */
  requireKey: GuardStep;
  /** Docs, media, the playground, the home page and the account area's pages, in this order. */
  pages: readonly MountRoutes[];
  health: HealthRouteParts;
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
 * A thin table: each endpoint definition becomes one route behind the guard steps the app gives
 * it (the key and its limits, or the browser session for the account area's `/account/api`);
 * then the pages each capability mounts (docs, media, playground, home, account area), and the
 * probes for orchestrators and Prometheus (`/healthz` says the process answers, `/readyz` that Redis and storage do too).
 */
export function buildRouter(parts: RouterParts): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const { endpoints } = parts;
  for (const endpoint of endpoints) {
    // GET routes answer HEAD too, as the router does for every GET.
    const methods = endpoint.methods.filter((method) => method !== 'HEAD' || !endpoint.methods.includes('GET'));
    router.register(routerPath(endpoint.path), methods.map((method) => method.toLowerCase()), [guarded(parts.guardsFor(endpoint), endpointRoute(endpoint))]);
    // OPTIONS is a method like the others: behind the key where the endpoint is (the router would
    // otherwise answer it for everyone). The answer lists the methods; no CORS is offered.
    // Several definitions may share a path (the templates: one per method): one OPTIONS answers for all of them.
    const samePath = endpoints.filter((other) => other.path === endpoint.path);
    if (endpoint.authenticated && !endpoint.admit && samePath[0] === endpoint && !samePath.some((other) => other.methods.includes('OPTIONS'))) {
      const methodsHere = samePath.flatMap((other) => other.methods);
      const allow = [...new Set([...methodsHere, ...(methodsHere.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ');
      router.register(routerPath(endpoint.path), ['options'], [
        parts.requireKey,
        (ctx) => {
          ctx.status = 204;
          ctx.set('Allow', allow);
        },
      ]);
    }
  }

  for (const mount of parts.pages) mount(router);

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
