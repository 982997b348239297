import type { Router } from '@koa/router';
import { checkReadiness } from '@utility-api/infra';
import type { Registry } from 'prom-client';
import type { GatewayState } from './gateway-state.ts';

export interface HealthRouteParts {
  /** Each resolves when its dependency answers (Redis, media storage). */
  readiness: Record<string, () => Promise<void>>;
  registry: Registry;
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

const CHECK_TIMEOUT_MS = 1000;

/**
 * Probes for orchestrators and Prometheus, public like the docs: `/healthz` says the process
 * answers, `/readyz` that Redis and storage do too (503 otherwise), `/metrics` the counters.
 */
export function mountHealthRoutes(router: Router<GatewayState>, parts: HealthRouteParts): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(parts.readiness, CHECK_TIMEOUT_MS);
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '1');
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks };
  });
  router.get('/metrics', async (ctx) => {
    if (parts.metricsToken !== undefined && ctx.get('authorization') !== `Bearer ${parts.metricsToken}`) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: { status: 401, code: 'unauthorized', message: 'Metrics need the METRICS_TOKEN bearer token.' }, requestId: ctx.state.requestId };
      return;
    }
    ctx.type = parts.registry.contentType;
    ctx.body = await parts.registry.metrics();
  });
}
