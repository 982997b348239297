import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { readJson, startTestGateway, type TestGateway } from '../../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

/** Written out rather than imported, so a loosened policy fails here. */
const EXPECTED_DIRECTIVES = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'connect-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

function directives(policy: string): Record<string, string> {
  return Object.fromEntries(
    policy.split(';').map((part) => part.trim()).filter(Boolean).map((part) => {
      const [name = '', ...values] = part.split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

async function page(): Promise<{ response: Response; html: string; scripts: string[] }> {
  const response = await fetch(`${gateway.url}/docs`);
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] ?? '');
  return { response, html, scripts };
}

/** The bytes of Scalar's bundle as its npm package ships them. */
function packagedBundle(): Buffer {
  const gatewayRequire = createRequire(new URL('../../../../services/gateway/package.json', import.meta.url));
  return readFileSync(join(dirname(gatewayRequire.resolve('@scalar/api-reference')), 'browser', 'standalone.js'));
}

test('/docs is a small HTML shell under its own strict CSP, with no key needed', async (t) => {
  const { response, html } = await page();
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  t.is(response.headers.get('cache-control'), 'public, max-age=300');
  t.is(response.headers.get('x-frame-options'), 'DENY');
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  t.deepEqual(directives(response.headers.get('content-security-policy') ?? ''), EXPECTED_DIRECTIVES);
  t.true(html.length < 2000, `${html.length} bytes`);
  t.regex(html, /<title>Utility API — API reference<\/title>/);
  t.regex(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
});

test('the page loads nothing from another host and runs no inline script', async (t) => {
  const { html, scripts } = await page();
  t.false(/(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), 'an absolute or protocol-relative URL');
  t.false(/<script(?![^>]*\bsrc=)[^>]*>/i.test(html), 'an inline script');
  t.false(/\son[a-z]+\s*=/i.test(html), 'an inline event handler');
  t.is(scripts.length, 1);
  t.regex(scripts[0] ?? '', /^\/docs\/assets\/docs-bootstrap\.[0-9a-f]{16}\.js$/);
});

test('the bootstrap loads the renderer bundle from this gateway, and that bundle is the npm package\'s own', async (t) => {
  const { scripts } = await page();
  const bootstrap = await (await fetch(`${gateway.url}${scripts[0]}`)).text();
  const rendererPath = /"(\/docs\/assets\/api-reference\.[0-9a-f]{16}\.js)"/.exec(bootstrap)?.[1];
  t.truthy(rendererPath, bootstrap);
  t.regex(bootstrap, /"url":"\/v1\/openapi\.json"/);
  // The options that keep the renderer from reaching other hosts.
  t.regex(bootstrap, /"withDefaultFonts":false/);
  t.regex(bootstrap, /"telemetry":false/);
  t.notRegex(bootstrap, /proxyUrl/);
  const renderer = await fetch(`${gateway.url}${rendererPath}`, { headers: { 'accept-encoding': 'identity' } });
  t.is(renderer.status, 200);
  t.is(renderer.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.true(Buffer.from(await renderer.arrayBuffer()).equals(packagedBundle()));
});

test('assets are cached forever under their hashed names, revalidate by ETag and come compressed', async (t) => {
  const { scripts } = await page();
  const bootstrap = await (await fetch(`${gateway.url}${scripts[0]}`)).text();
  const path = /"(\/docs\/assets\/api-reference\.[0-9a-f]{16}\.js)"/.exec(bootstrap)?.[1] ?? '';
  const plain = Buffer.from(await (await fetch(`${gateway.url}${path}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());

  const brotli = await rawGet(path, { 'accept-encoding': 'br' });
  t.is(brotli.status, 200);
  t.is(brotli.headers['content-encoding'], 'br');
  t.is(brotli.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.is(brotli.headers.vary, 'Accept-Encoding');
  t.true(brotli.body.length < plain.length / 2, `${brotli.body.length} of ${plain.length} bytes`);
  t.true(brotliDecompressSync(brotli.body).equals(plain));

  const gzipped = await rawGet(path, { 'accept-encoding': 'gzip' });
  t.is(gzipped.headers['content-encoding'], 'gzip');
  t.true(gunzipSync(gzipped.body).equals(plain));

  const etag = brotli.headers.etag;
  t.regex(etag ?? '', /^"[0-9a-f]{64}"$/);
  t.is(gzipped.headers.etag, etag);
  const revalidated = await rawGet(path, { 'if-none-match': etag ?? '' });
  t.is(revalidated.status, 304);
  t.is(revalidated.body.length, 0);
});

test('/v1/openapi.json comes br or gzip compressed as the client takes it, the same bytes as plain, with a strong ETag and 304', async (t) => {
  const path = '/v1/openapi.json';
  const plain = await rawGet(path, { 'accept-encoding': 'identity' });
  t.is(plain.status, 200);
  t.is(plain.headers['content-encoding'], undefined);
  t.is(plain.headers['content-type'], 'application/json; charset=utf-8');
  t.is(plain.headers['cache-control'], 'public, max-age=300');
  t.is(plain.headers.vary, 'Accept-Encoding');
  // The document itself, unchanged by being served from memory.
  t.is((JSON.parse(plain.body.toString('utf8')) as { openapi: string }).openapi, '3.1.0');

  const brotli = await rawGet(path, { 'accept-encoding': 'br' });
  t.is(brotli.status, 200);
  t.is(brotli.headers['content-encoding'], 'br');
  t.is(brotli.headers.vary, 'Accept-Encoding');
  t.true(brotli.body.length < plain.body.length / 4, `${brotli.body.length} of ${plain.body.length} bytes`);
  t.true(brotliDecompressSync(brotli.body).equals(plain.body));

  const gzipped = await rawGet(path, { 'accept-encoding': 'gzip' });
  t.is(gzipped.headers['content-encoding'], 'gzip');
  t.true(gunzipSync(gzipped.body).equals(plain.body));

  // One strong ETag for every encoding: the entity is the document, whichever coding carries it.
  const etag = plain.headers.etag;
  t.regex(etag ?? '', /^"[0-9a-f]{64}"$/);
  t.is(brotli.headers.etag, etag);
  t.is(gzipped.headers.etag, etag);
  const revalidated = await rawGet(path, { 'if-none-match': etag ?? '', 'accept-encoding': 'br' });
  t.is(revalidated.status, 304);
  t.is(revalidated.body.length, 0);
  t.is(revalidated.headers.etag, etag);
  const changed = await rawGet(path, { 'if-none-match': '"0000"', 'accept-encoding': 'identity' });
  t.is(changed.status, 200);
  t.true(changed.body.equals(plain.body));
});

test('an unknown asset name is the JSON 404, without the asset caching', async (t) => {
  for (const path of ['/docs/assets/api-reference.0000000000000000.js', '/docs/assets/standalone.js', '/docs/assets/..%2Fpackage.json']) {
    const response = await fetch(`${gateway.url}${path}`);
    t.is(response.status, 404, path);
    t.is(response.headers.get('cache-control'), 'no-store', path);
    t.is((await readJson(response)).error.code, 'not_found', path);
  }
});

/** A GET through node:http, which (unlike fetch) leaves the body as sent. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>((resolve, reject) => {
    const outgoing = request(`${gateway.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
