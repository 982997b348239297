import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkReadiness } from '@utility-api/infra';

export interface HealthChecks {
  /** Each resolves when its dependency answers; a rejection marks the process not ready. */
  readiness: Record<string, () => Promise<void>>;
  /** Prometheus text exposition. */
  metrics(): Promise<{ contentType: string; body: string }>;
}

const CHECK_TIMEOUT_MS = 1000;

/**
 * The renderer's small HTTP face for orchestrators: `/healthz` (the process answers), `/readyz`
 * (Redis and storage reachable) and `/metrics`. It serves no user traffic.
 */
export async function startHealthServer(options: { host: string; port: number; checks: HealthChecks }): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: string, contentType = 'application/json') => {
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, JSON.stringify({ error: 'method_not_allowed' }));
    if (path === '/healthz') return send(200, JSON.stringify({ status: 'ok' }));
    if (path === '/readyz') {
      void checkReadiness(options.checks.readiness, CHECK_TIMEOUT_MS).then(({ ready, checks }) => {
        send(ready ? 200 : 503, JSON.stringify({ status: ready ? 'ready' : 'not_ready', checks }));
      });
      return;
    }
    if (path === '/metrics') {
      void options.checks.metrics().then(
        ({ contentType, body }) => send(200, body, contentType),
        () => send(500, JSON.stringify({ error: 'metrics_unavailable' })),
      );
      return;
    }
    send(404, JSON.stringify({ error: 'not_found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}` };
}
