import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { GatewayState } from '../http/gateway-state.ts';

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export interface GatewayMetrics {
  registry: Registry;
  /** Records latency by route template (never the raw path) and status. */
  middleware: Middleware<GatewayState>;
  cardRequests: Counter<'render'>;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request arrival to response, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const cardRequests = new Counter({
    name: 'card_requests_total',
    help: 'Successful profile-image answers: a new render, or one reused from an identical request.',
    labelNames: ['render'],
    registers: [registry],
  });
  const middleware: Middleware<GatewayState> = async (ctx, next) => {
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      latency.observe({ route, method: ctx.method, status: String(ctx.status) }, (performance.now() - ctx.state.receivedAt) / 1000);
    }
  };
  return { registry, middleware, cardRequests };
}
