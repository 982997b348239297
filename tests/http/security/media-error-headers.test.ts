import { Readable } from 'node:stream';
import test from 'ava';
import { StorageUnavailableError, type MediaObject, type MediaStore } from '@utility-api/media-store';
import { RawHttpClient } from '../../support/fuzz/support/raw-http.ts';
import { securityHeaderProblems } from '../../support/fuzz/support/response-rules.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

const KEY = '00000000-0000-4000-8000-000000000001';
const OBJECT: MediaObject = { key: KEY, size: 8, etag: '"stat-etag"', lastModified: new Date(Date.UTC(2024, 0, 1)), format: 'png', contentType: 'image/png' };

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

async function serve(media: MediaStore): Promise<{ app: TestGateway; client: RawHttpClient }> {
  const app = await startTestGateway({ media, env: { RATE_LIMITS: 'off' } });
  return { app, client: new RawHttpClient(app.url) };
}

async function stop({ app, client }: { app: TestGateway; client: RawHttpClient }): Promise<void> {
  client.close();
  await app.close();
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
