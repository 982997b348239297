import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import test from 'ava';
import { createLogger } from '@utility-api/infra';
import { StorageUnavailableError, type MediaObject, type MediaStore } from '@utility-api/media-store';
import { createGatewayApp } from '../../services/gateway/src/app.ts';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { createGatewayMetrics } from '../../services/gateway/src/metrics/gateway-metrics.ts';
import { RawHttpClient } from '../fuzz/support/raw-http.ts';
import { securityHeaderProblems } from '../fuzz/support/response-rules.ts';

const KEY = '00000000-0000-4000-8000-000000000001';
const OBJECT: MediaObject = { key: KEY, size: 8, etag: '"stat-etag"', lastModified: new Date(Date.UTC(2024, 0, 1)), contentType: 'image/png' };

/**
 * A store whose `stat` finds the image and whose `open` then fails: the image expired or storage
 * went down between the two calls. The route has set the image's caching headers by then.
 */
function storeFailingAfterStat(open: () => Promise<undefined>): MediaStore {
  return {
    kind: 'disk',
    put: () => Promise.reject(new Error('not used')),
    stat: () => Promise.resolve(OBJECT),
    open,
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

async function serve(media: MediaStore): Promise<{ server: Server; client: RawHttpClient }> {
  const config = loadGatewayConfig({ API_KEYS: 'media-test-key-0123456789', RATE_LIMITS: 'off', LOG_LEVEL: 'silent' });
  const metrics = createGatewayMetrics();
  const app = createGatewayApp({
    logger: createLogger({ service: 'media-error-test', level: 'silent' }),
    keys: { verify: () => Promise.resolve(undefined) },
    endpoints: [],
    media,
    health: { readiness: {}, registry: metrics.registry, metricsToken: undefined },
    metricsMiddleware: metrics.middleware,
    publicBaseUrl: 'http://127.0.0.1',
    trustProxy: false,
    rateLimits: undefined,
    rateLimitSettings: config.rateLimits,
  });
  const handle = app.callback();
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, client: new RawHttpClient(`http://127.0.0.1:${port}`) };
}

async function stop({ server, client }: { server: Server; client: RawHttpClient }): Promise<void> {
  client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// Regression: the error answer kept `Cache-Control: public, max-age=31536000, immutable`, the ETag
// and `Cross-Origin-Resource-Policy: cross-origin` that the route had set for the image.
for (const [name, open, status] of [
  ['storage failing', () => Promise.reject(new StorageUnavailableError('io_error')), 503],
  ['image vanishing', () => Promise.resolve(undefined), 404],
] as const) {
  test(`a media error after the stat (${name}) is a ${status} that is neither cached nor embeddable`, async (t) => {
    const running = await serve(storeFailingAfterStat(open));
    try {
      // A non-matching If-None-Match makes the route stat first, then open.
      const response = await running.client.send({ method: 'GET', path: `/media/${KEY}.png`, headers: { 'if-none-match': '"other"' } });
      t.is(response.status, status);
      t.is(JSON.parse(response.body.toString('utf8')).error.status, status);
      t.deepEqual(securityHeaderProblems('media', response.status, response.headers), []);
      t.is(response.headers.etag, undefined);
      t.is(response.headers['last-modified'], undefined);
      t.regex(String(response.headers['content-type']), /^application\/json/);
    } finally {
      await stop(running);
    }
  });
}

test('the same store serves the image with its caching headers when open works', async (t) => {
  const running = await serve({
    ...storeFailingAfterStat(() => Promise.resolve(undefined)),
    open: () => Promise.resolve({ object: OBJECT, body: Readable.from([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')]) }),
  });
  try {
    const response = await running.client.send({ method: 'GET', path: `/media/${KEY}.png`, headers: { 'if-none-match': '"other"' } });
    t.is(response.status, 200);
    t.deepEqual(securityHeaderProblems('media', response.status, response.headers), []);
    t.is(response.headers.etag, '"stat-etag"');
  } finally {
    await stop(running);
  }
});
