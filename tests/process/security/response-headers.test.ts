import test from 'ava';
import { securityHeaderProblems, type RouteKind } from '../../support/fuzz/support/response-rules.ts';
import { RawHttpClient, type RawRequest } from '../../support/fuzz/support/raw-http.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
let client: RawHttpClient;
let mediaPath: string;
let mediaEtag: string;
test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RATE_LIMITS: 'off', RENDER_WORKERS: '1' } });
  client = new RawHttpClient(gateway.url);
  const card = await client.send({
    method: 'POST',
    path: '/v1/profile-image?userId=302050872383242240',
    headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
    body: '{"customTag":"headers"}',
  });
  mediaPath = new URL(JSON.parse(card.body.toString('utf8')).url as string).pathname;
  mediaEtag = String((await client.send({ method: 'HEAD', path: mediaPath })).headers.etag);
});
test.after.always(async () => {
  client?.close();
  await gateway?.close();
});

const key = { authorization: TEST_API_KEY };
const json = { ...key, 'content-type': 'application/json' };

interface HeaderCase {
  name: string;
  request: () => RawRequest;
  status: number;
  kind: RouteKind;
}

/** One request per kind of answer the gateway gives, errors included (the 500 path is unreachable). */
const CASES: HeaderCase[] = [
  { name: 'API JSON 200', request: () => ({ method: 'GET', path: '/v1/hex-to-rgb?hex=fff', headers: key }), status: 200, kind: 'api' },
  { name: 'HEAD 200', request: () => ({ method: 'HEAD', path: '/v1/hex-to-rgb?hex=fff', headers: key }), status: 200, kind: 'api' },
  { name: 'OPTIONS 204 with the key', request: () => ({ method: 'OPTIONS', path: '/v1/time', headers: key }), status: 204, kind: 'api' },
  { name: 'OPTIONS 200 from the router on a public path', request: () => ({ method: 'OPTIONS', path: '/docs' }), status: 200, kind: 'api' },
  { name: 'card 200', request: () => ({ method: 'POST', path: '/v1/profile-image/302050872383242240', headers: json, body: '{"customTag":"headers"}' }), status: 200, kind: 'api' },
  { name: '400 validation', request: () => ({ method: 'GET', path: '/v1/hex-to-rgb?hex=zz', headers: key }), status: 400, kind: 'api' },
  { name: '400 body too deep', request: () => ({ method: 'POST', path: '/v1/sort-array', headers: json, body: `{"a":${'['.repeat(40)}${']'.repeat(40)}}` }), status: 400, kind: 'api' },
  { name: '401 without a key', request: () => ({ method: 'GET', path: '/v1/time' }), status: 401, kind: 'api' },
  { name: '401 with a wrong key', request: () => ({ method: 'GET', path: '/v1/time', headers: { authorization: 'wrong-key-0123456789abcdef' } }), status: 401, kind: 'api' },
  { name: '404 unknown path', request: () => ({ method: 'GET', path: '/v1/nothing' }), status: 404, kind: 'api' },
  { name: '404 unknown path and method', request: () => ({ method: 'PROPFIND', path: '/nothing' }), status: 404, kind: 'api' },
  { name: '405 wrong method', request: () => ({ method: 'POST', path: '/v1/time', headers: key }), status: 405, kind: 'api' },
  { name: '405 on the docs', request: () => ({ method: 'DELETE', path: '/docs' }), status: 405, kind: 'docs' },
  { name: '413 body over 1 MB', request: () => ({ method: 'POST', path: '/v1/sort-array', headers: json, body: JSON.stringify({ x: 'x'.repeat(1024 * 1024) }) }), status: 413, kind: 'api' },
  { name: '415 not JSON', request: () => ({ method: 'POST', path: '/v1/sort-array', headers: { ...key, 'content-type': 'text/plain' }, body: '{"array":[1]}' }), status: 415, kind: 'api' },
  {
    name: '422 refused image URL',
    request: () => ({ method: 'POST', path: '/v1/profile-image?userId=302050872383242240', headers: json, body: '{"customBackground":"http://127.0.0.1/x.png"}' }),
    status: 422,
    kind: 'api',
  },
  { name: 'docs page', request: () => ({ method: 'GET', path: '/docs' }), status: 200, kind: 'docs' },
  { name: 'OpenAPI document', request: () => ({ method: 'GET', path: '/v1/openapi.json' }), status: 200, kind: 'openapi' },
  { name: 'media 200', request: () => ({ method: 'GET', path: mediaPath }), status: 200, kind: 'media' },
  { name: 'media HEAD', request: () => ({ method: 'HEAD', path: mediaPath }), status: 200, kind: 'media' },
  { name: 'media 304', request: () => ({ method: 'GET', path: mediaPath, headers: { 'if-none-match': mediaEtag } }), status: 304, kind: 'media' },
  { name: 'media 404', request: () => ({ method: 'GET', path: '/media/00000000-0000-4000-8000-000000000000.png' }), status: 404, kind: 'media' },
  { name: 'media 405', request: () => ({ method: 'POST', path: mediaPath }), status: 405, kind: 'media' },
  { name: 'health', request: () => ({ method: 'GET', path: '/healthz' }), status: 200, kind: 'api' },
  { name: 'metrics', request: () => ({ method: 'GET', path: '/metrics' }), status: 200, kind: 'api' },
];

for (const headerCase of CASES) {
  test(`security headers: ${headerCase.name}`, async (t) => {
    const response = await client.send(headerCase.request());
    t.is(response.status, headerCase.status, response.body.toString('utf8').slice(0, 300));
    t.deepEqual(securityHeaderProblems(headerCase.kind, response.status, response.headers), []);
  });
}

test('card images may be embedded cross-origin; API answers and the docs may not', async (t) => {
  t.is((await client.send({ method: 'GET', path: mediaPath })).headers['cross-origin-resource-policy'], 'cross-origin');
  for (const path of ['/v1/openapi.json', '/docs', '/media/00000000-0000-4000-8000-000000000000.png']) {
    t.is((await client.send({ method: 'GET', path })).headers['cross-origin-resource-policy'], 'same-origin', path);
  }
});

test('API JSON is inert in a browser: no script, no framing, no caching, no referrer', async (t) => {
  const response = await client.send({ method: 'GET', path: '/v1/time', headers: key });
  t.like(response.headers, {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
});

test('429 answers carry the security headers as well as Retry-After', async (t) => {
  const limited = await startTestGateway({ env: { RATE_LIMIT_DEFAULT: '1/60s' } });
  const limitedClient = new RawHttpClient(limited.url);
  try {
    await limitedClient.send({ method: 'GET', path: '/v1/time', headers: key });
    const refused = await limitedClient.send({ method: 'GET', path: '/v1/time', headers: key });
    t.is(refused.status, 429);
    t.truthy(refused.headers['retry-after']);
    t.deepEqual(securityHeaderProblems('api', 429, refused.headers), []);
  } finally {
    limitedClient.close();
    await limited.close();
  }
});

test('HSTS only for requests a trusted proxy says came over https', async (t) => {
  const proxied = await startTestGateway({ env: { TRUST_PROXY: 'true', RATE_LIMITS: 'off' } });
  const proxiedClient = new RawHttpClient(proxied.url);
  try {
    for (const request of [
      { method: 'GET', path: '/v1/time', headers: key },
      { method: 'GET', path: '/v1/time' },
      { method: 'GET', path: '/docs' },
      { method: 'GET', path: '/nothing' },
    ]) {
      const https = await proxiedClient.send({ ...request, headers: { ...request.headers, 'x-forwarded-proto': 'https' } });
      t.is(https.headers['strict-transport-security'], 'max-age=31536000', request.path);
      const http = await proxiedClient.send(request);
      t.is(http.headers['strict-transport-security'], undefined, request.path);
    }
  } finally {
    proxiedClient.close();
    await proxied.close();
  }
  // Without TRUST_PROXY the header is the client's word, not the proxy's: no HSTS.
  const spoofed = await client.send({ method: 'GET', path: '/v1/time', headers: { ...key, 'x-forwarded-proto': 'https' } });
  t.is(spoofed.headers['strict-transport-security'], undefined);
});
