import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Lifecycle, Logger } from '@utility-api/infra';
import { createGatewayApp } from './app.ts';
import { answerClientError } from './http/client-error-response.ts';
import { apiKeyRecordsFor, openApiKeys } from './auth/open-api-keys.ts';
import { defaultPublicBaseUrl, type GatewayConfig } from './config.ts';
import { inlineEndpoints } from './endpoints/inline-endpoints.ts';
import { profileImageEndpoints } from './endpoints/profile-image/endpoint.ts';
import { createGatewayMetrics } from './metrics/gateway-metrics.ts';
import { createRateLimits } from './rate-limits/rate-limits.ts';
import { startRenderBackends, type RenderBackends } from './rendering/render-backends.ts';
import type { Clock } from './runtime/clock.ts';
import type { RandomSource } from './runtime/random-source.ts';

export interface GatewayRuntime {
  clock: Clock;
  random: RandomSource;
}

export interface RunningGateway {
  server: Server;
  url: string;
  backends: RenderBackends;
}

/**
 * Slow or silent clients are dropped instead of holding sockets (slowloris): headers must arrive
 * within HEADERS_TIMEOUT_MS. Node only enforces the header and request timeouts when it sweeps its
 * connections, every 30 s by default; sweeping each second keeps the bound close to the setting.
 */
const SERVER_TIMEOUTS = { requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, connectionsCheckingIntervalMs: 1000 } as const;

/**
 * Builds and starts the gateway from a parsed config; every resource it opens registers its
 * closer with the lifecycle as it is created.
 */
export async function startGateway(
  config: GatewayConfig,
  runtime: GatewayRuntime,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<RunningGateway> {
  const metrics = createGatewayMetrics();
  const backends = await startRenderBackends(config, logger, lifecycle, metrics.registry);
  // Managed keys and limit counters live in Redis when there is one (the producer connection, which fails fast).
  const keys = await openApiKeys({
    bootstrapKeys: config.apiKeys,
    records: apiKeyRecordsFor({ redis: backends.redis, redisUrl: config.redisUrl, keysFile: config.keysFile }),
    logger,
    lifecycle,
  });
  const rateLimits = createRateLimits(config.rateLimits, backends.redis, logger);

  const server = createServer({ connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingIntervalMs });
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  lifecycle.onClose('http server', () => closeServer(server));

  const { port } = server.address() as AddressInfo;
  const publicBaseUrl = config.publicBaseUrl ?? defaultPublicBaseUrl(config.host, port);
  const app = createGatewayApp({
    logger,
    keys: keys.store,
    publicBaseUrl,
    trustProxy: config.trustProxy,
    rateLimits,
    rateLimitSettings: config.rateLimits,
    media: backends.media,
    metricsMiddleware: metrics.middleware,
    health: {
      readiness: { [backends.backingStore.kind]: () => backends.backingStore.ping(), storage: () => backends.media.ping() },
      registry: metrics.registry,
      metricsToken: config.metricsToken,
    },
    endpoints: [
      ...profileImageEndpoints({
        queue: backends.queue,
        publicBaseUrl,
        renderTimeoutMs: config.renderTimeoutMs,
        mediaTtlDays: config.rendering.media.ttlDays,
        cardsInFlightPerKey: rateLimits?.cardsInFlight.perKey,
        onRendered: (reused) => metrics.cardRequests.inc({ render: reused ? 'reused' : 'new' }),
      }),
      ...inlineEndpoints({
        clock: runtime.clock,
        random: runtime.random,
        store: backends.backingStore,
        environment: config.deploymentEnvironment,
      }),
    ],
  });
  const handle = app.callback();
  server.on('request', (request, response) => void handle(request, response));

  const url = defaultPublicBaseUrl(config.host, port);
  logger.info(
    {
      url,
      publicBaseUrl,
      keys: keys.bootstrapKeys,
      managedKeys: keys.managedKeys,
      keyStore: keys.backend,
      rateLimits: rateLimits ? (rateLimits.shared ? 'redis' : 'memory') : 'off',
      mode: backends.mode,
    },
    'gateway listening',
  );
  return { server, url, backends };
}

/** How often a draining server closes the keep-alive sockets whose last response went out. */
const DRAIN_SWEEP_MS = 100;

/**
 * Stops accepting, lets in-flight requests finish, and closes idle keep-alive sockets at once and
 * then as each in-flight response completes: left open, they would hold shutdown until the client
 * or the keep-alive timeout closed them.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
    server.close((error) => {
      clearInterval(sweep);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
