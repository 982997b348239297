import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

export function createGatewayMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // By route template (never the raw path), method and status; the request pipeline observes it.
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request arrival to response, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const help = 'Successful profile-image answers: a new render, or one reused from an identical request.';
  const cardRequests = new Counter({ name: 'card_requests_total', help, labelNames: ['render'], registers: [registry] });
  return { registry, latency, cardRequests };
}
