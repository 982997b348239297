import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Lifecycle } from '@utility-api/lifecycle';
import type { Logger } from '@utility-api/logging';
import { createGatewayApp } from './app.ts';
import { StaticApiKeyStore } from './auth/static-api-key-store.ts';
import { defaultPublicBaseUrl, type GatewayConfig } from './config.ts';
import { inlineEndpoints } from './endpoints/inline-endpoints.ts';
import { profileImageEndpoints } from './endpoints/profile-image/endpoint.ts';
import { createGatewayMetrics } from './metrics/gateway-metrics.ts';
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

/** Slow or silent clients are dropped instead of holding sockets (slowloris). */
const SERVER_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 } as const;

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
  let apiKeys = config.apiKeys;
  if (apiKeys.length === 0) {
    // A fresh machine still gets a working API; the key is only valid for this process.
    const generated = `dev_${randomBytes(24).toString('base64url')}`;
    apiKeys = [generated];
    logger.warn(`API_KEYS is not set: generated a key for this run only: ${generated}`);
  }
  const keys = new StaticApiKeyStore(apiKeys);
  const metrics = createGatewayMetrics();
  const backends = await startRenderBackends(config, logger, lifecycle, metrics.registry);

  const server = createServer();
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;

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
    keys,
    publicBaseUrl,
    trustProxy: config.trustProxy,
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
  logger.info({ url, publicBaseUrl, keys: keys.size, mode: backends.mode }, 'gateway listening');
  return { server, url, backends };
}

/** Stops accepting, lets in-flight requests finish, and closes idle keep-alive sockets at once. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
