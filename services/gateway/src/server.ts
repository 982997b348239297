import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Lifecycle, type Logger } from '@utility-api/infra';
import { createGatewayApp, type GatewayRuntime } from './app.ts';
import { defaultPublicBaseUrl, type GatewayConfig } from './config.ts';
import { answerClientError } from './http/request-pipeline.ts';
import { createGatewayMetrics } from './runtime/gateway-metrics.ts';
import { openRenderBackends } from './cards/rendering/render-backends.ts';
import { startupSummary } from './startup-summary.ts';

/**
 * Builds and starts the gateway from a parsed config; every resource it opens registers its
 * closer with the lifecycle as it is created.
 */
export async function startGateway(config: GatewayConfig, runtime: GatewayRuntime, logger: Logger, lifecycle: Lifecycle) {
  const metrics = createGatewayMetrics();
  const backends = await openRenderBackends(config, logger, lifecycle, metrics.registry);
  // What the app opens (the account store, keys, the usage meter) closes after the HTTP server has
  // drained: registered before the server, it closes after it, so requests still in flight at
  // shutdown are answered and counted before the meter's last flush and before the store closes.
  const appLifecycle = new Lifecycle();
  lifecycle.onClose('gateway app', async () => {
    const report = await appLifecycle.shutdown(config.shutdownTimeoutMs);
    const unclosed = [...report.failed.map((failure) => failure.name), ...report.timedOut];
    if (unclosed.length > 0) throw new Error(`gateway app: not closed: ${unclosed.join(', ')}`, { cause: report.failed[0]?.error });
  });
  const { server, port, serve } = await listen(config, lifecycle);
  const publicBaseUrl = config.publicBaseUrl ?? defaultPublicBaseUrl(config.host, port);
  const { app, router, keys, rateLimits, ownerSignInLink, ownerPlan } = await createGatewayApp({
    config, runtime, logger, lifecycle: appLifecycle, metrics, publicBaseUrl,
    redis: backends.redis, media: backends.media, backingStore: backends.backingStore,
    rendering: { queue: backends.queue, mode: backends.mode },
  });
  serve(app.callback());

  const url = defaultPublicBaseUrl(config.host, port);
  const rateLimitStore = rateLimits ? (rateLimits.shared ? 'redis' : 'memory') : 'off';
  const keyCounts = { keys: keys.bootstrapCount, managedKeys: keys.activeCount, keyStore: keys.backend };
  logger.info({ url, publicBaseUrl, ...keyCounts, rateLimits: rateLimitStore, mode: backends.mode }, 'gateway listening');
  const summary = startupSummary({ publicBaseUrl, generatedKey: keys.generatedKey, bootstrapKeys: keys.bootstrapCount, managedKeys: keys.activeCount, signInLink: ownerSignInLink, ownerPlan, quotasEnforced: config.rateLimits.enabled });
  // The router too, for tests that hold its routes against the documents.
  return { server, url, backends, summary, router };
}

/**
 * Slow or silent clients are dropped instead of holding sockets (slowloris): headers must arrive
 * within HEADERS_TIMEOUT_MS and the whole request within REQUEST_TIMEOUT_MS. Node only enforces
 * those when it sweeps its connections, every 30 s by default; sweeping each second keeps the bound
 * close to the settings.
 */
export const SERVER_TIMEOUTS = { keepAliveTimeoutMs: 5_000, connectionsCheckingIntervalMs: 1000 } as const;
/** How often a draining server closes the keep-alive sockets whose last response went out. */
const DRAIN_SWEEP_MS = 100;

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Where a connection keeps the response last made on it, for the drain to find. */
const LAST_RESPONSE = Symbol('last response');
type SocketWithResponse = Socket & { [LAST_RESPONSE]?: ServerResponse };

/** The configured port is held by another process; `hint` is one line saying what to do. */
export class PortTakenError extends Error {
  readonly hint: string;

  constructor(host: string, port: number, cause: unknown) {
    super(`port ${port} on ${host} is already in use (EADDRINUSE)`, { cause });
    this.name = 'PortTakenError';
    const next = port < 65_535 ? port + 1 : 3001;
    this.hint = `Port ${port} on ${host} is already in use by another program: stop it, or start on another port, e.g. PORT=${next} ./run start`;
  }
}

/**
 * An HTTP server listening on the configured address; `serve` hands it the app, which needs the
 * port for its public URL. Requests that arrive before that wait for it instead of going unanswered.
 * On shutdown it stops accepting, lets in-flight requests finish, and
 * closes idle keep-alive sockets at once and then as each in-flight response completes: left open,
 * they would hold shutdown until the client or the keep-alive timeout closed them.
 */
export async function listen(
  config: Pick<GatewayConfig, 'port' | 'host' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
  lifecycle: Lifecycle,
): Promise<{ server: Server; port: number; serve: (handler: RequestHandler) => void }> {
  const server = createServer({ connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingIntervalMs });
  const { promise: app, resolve: serve } = Promise.withResolvers<RequestHandler>();
  let handle: RequestHandler = async (request, response) => (await app)(request, response);
  void app.then((handler) => (handle = handler));
  // Responses still being made when shutdown starts say `Connection: close`, so a keep-alive client
  // does not send its next request into a socket about to close (it would see a reset). They are
  // found through the open connections, tracked per connection rather than per response (a
  // listener per response was a visible cost of every light request): each socket holds the last
  // response made on it, and one whose headers are not out yet is still being made.
  let draining = false;
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response) => {
    if (draining) response.shouldKeepAlive = false;
    else (request.socket as SocketWithResponse)[LAST_RESPONSE] = response;
    void handle(request, response);
  });
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
  server.listen(config.port, config.host);
  // Rejects with the listen error instead of waiting forever; a taken port gets a hint for the person
  // at the terminal (started by hand, it is the most common first-run failure).
  await once(server, 'listening').catch((error: unknown) => {
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new PortTakenError(config.host, config.port, error) : error;
  });
  lifecycle.onClose('http server', () => new Promise<void>((resolve, reject) => {
    draining = true;
    for (const socket of connections) {
      const response = (socket as SocketWithResponse)[LAST_RESPONSE];
      if (response !== undefined && !response.headersSent) response.shouldKeepAlive = false;
    }
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
    server.close((error) => {
      clearInterval(sweep);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  }));
  return { server, port: (server.address() as AddressInfo).port, serve };
}
