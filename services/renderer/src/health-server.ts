import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthChecks {
  /** Each resolves when its dependency answers; a rejection marks the process not ready. */
  readiness: Record<string, () => Promise<void>>;
  /** Prometheus text exposition. */
  metrics(): Promise<{ contentType: string; body: string }>;
}

const CHECK_TIMEOUT_MS = 1000;

async function withTimeout(check: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

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
      const names = Object.keys(options.checks.readiness);
      void Promise.allSettled(names.map((name) => withTimeout(options.checks.readiness[name]!))).then((results) => {
        const checks = Object.fromEntries(names.map((name, index) => [name, results[index]!.status === 'fulfilled' ? 'ok' : 'unavailable']));
        const ready = results.every((result) => result.status === 'fulfilled');
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
