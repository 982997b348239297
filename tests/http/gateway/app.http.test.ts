import { request as httpRequest } from 'node:http';
import test from 'ava';
import { postJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

/** Sends bytes exactly as given (fetch normalizes paths and refuses some requests). */
function rawRequest(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const url = new URL(gateway.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const request = httpRequest(
        { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        },
      );
      request.on('error', reject);
      request.end(options.body);
    },
  );
}

test('404 JSON for an unknown path, with or without a key', async (t) => {
  for (const init of [{}, { headers: { authorization: 'nope' } }]) {
    const { status, body, response } = await gateway.json('/v1/unknown', init);
    t.is(status, 404);
    t.is(body.error.code, 'not_found');
    t.is(body.requestId, response.headers.get('x-request-id'));
  }
  t.is((await gateway.json('/nothing-here')).status, 404);
  // `/` is the home page now (tests/browser/account/found-from-everywhere.test.ts), JSON when asked for.
  t.is((await gateway.json('/', { headers: { accept: 'application/json' } })).status, 200);
});

test('405 JSON with Allow for a wrong method', async (t) => {
  const { status, body, response } = await gateway.json('/v1/time', { method: 'POST' });
  t.is(status, 405);
  t.is(body.error.code, 'method_not_allowed');
  t.regex(response.headers.get('allow') ?? '', /GET/);
  const sort = await gateway.json('/v1/sort-array');
  t.is(sort.status, 405);
  t.regex(sort.response.headers.get('allow') ?? '', /POST/);
});

test('405 JSON for a method no route knows', async (t) => {
  const { status, body } = await gateway.json('/v1/time', { method: 'PROPFIND' });
  t.is(status, 405);
  t.is(body.error.code, 'method_not_allowed');
});

test('413 for a body over 1 MB', async (t) => {
  const array = Array.from({ length: 200_000 }, (_, index) => index);
  const { status, body } = await gateway.json('/v1/sort-array', postJson({ array }));
  t.is(status, 413);
  t.is(body.error.code, 'payload_too_large');
});

test('415 for a body that is not JSON', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: '{"array":[1]}',
  });
  t.is(status, 415);
  t.is(body.error.code, 'unsupported_media_type');
  const missingType = await rawRequest('/v1/sort-array', {
    method: 'POST',
    headers: { authorization: 'test-key-0123456789abcdef', 'content-length': '13' },
    body: '{"array":[1]}',
  });
  t.is(missingType.status, 415);
});

test('400 body_too_deep for JSON nested past the limit', async (t) => {
  const deep = `{"array":[1],"x":${'['.repeat(40)}${']'.repeat(40)}}`;
  const { status, body } = await gateway.json('/v1/sort-array', postJson(deep));
  t.is(status, 400);
  t.is(body.error.code, 'body_too_deep');
  const veryDeep = `{"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
  t.is((await gateway.json('/v1/status', postJson(veryDeep))).status, 400);
});

test('400 malformed_body for broken JSON, never 500', async (t) => {
  for (const text of ['{"array": [1,', '{array: [1]}', 'null', '"text"', '\u0000']) {
    const { status, body } = await gateway.json('/v1/sort-array', postJson(text));
    t.is(status, 400, text);
    t.is(body.error.code, 'malformed_body', text);
  }
});

test('400 for __proto__ keys in a body, and nothing is polluted', async (t) => {
  const { status, body } = await gateway.json('/v1/status', postJson('{"__proto__":{"polluted":true},"a":1}'));
  t.is(status, 400);
  t.is(body.error.code, 'malformed_body');
  t.regex(body.error.message, /__proto__/);
  const nested = await gateway.json('/v1/sort-array', postJson('{"array":[2,1],"x":{"constructor":{"prototype":{"polluted":1}}}}'));
  t.is(nested.status, 200);
  t.is(({} as Record<string, unknown>).polluted, undefined);
  const validator = await gateway.json('/v1/json-validator', postJson('{"json":{"__proto__":{"polluted":true}}}'));
  t.is(validator.status, 400);
  t.is(validator.body.status, 'invalid');
});

test('X-Request-Id: a caller id is kept, an unsafe one replaced', async (t) => {
  const kept = await gateway.request('/v1/hex-to-rgb?hex=fff', { headers: { 'x-request-id': 'bot-42.abc' } });
  t.is(kept.headers.get('x-request-id'), 'bot-42.abc');
  const replaced = await gateway.request('/v1/hex-to-rgb?hex=fff', { headers: { 'x-request-id': 'a b<script>' } });
  t.regex(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('API responses carry nosniff and no-store', async (t) => {
  for (const path of ['/v1/hex-to-rgb?hex=fff', '/v1/hex-to-rgb', '/v1/nothing']) {
    const response = await gateway.request(path);
    t.is(response.headers.get('x-content-type-options'), 'nosniff', path);
    t.is(response.headers.get('cache-control'), 'no-store', path);
  }
});

test('malformed percent-encoding and odd paths never give a 500', async (t) => {
  const headers = { authorization: 'test-key-0123456789abcdef' };
  for (const path of ['/v1/hex-to-rgb?hex=%E0%A4%A', '/v1/scramble?word=%FF', '/v1/%', '/v1/time/%E0%A4%A', '//v1//time', '/v1/time?unix=%00']) {
    const { status, body } = await rawRequest(path, { headers });
    t.true(status < 500, `${path} -> ${status}`);
    t.notThrows(() => JSON.parse(body), path);
  }
});

test('HEAD on a GET endpoint sends headers and no body', async (t) => {
  const response = await gateway.request('/v1/hex-to-rgb?hex=fff', { method: 'HEAD' });
  t.is(response.status, 200);
  t.is(await response.text(), '');
});

test('a POST with no body at all is validated as an empty object, not refused as a 415', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', { method: 'POST' });
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'body', field: 'array', message: 'is required' }]);
  const validator = await gateway.json('/v1/json-validator', { method: 'POST' });
  t.is(validator.status, 400);
  t.is(validator.body.status, 'invalid');
  t.regex(validator.body.message, /provide a JSON/);
});

test('404, not 405, for a method no route knows on a path no route serves', async (t) => {
  // Regression: the router answers unknown methods with 501 before matching the path, which became
  // a 405 with an empty Allow ("use .").
  for (const method of ['PROPFIND', 'LOCK', 'MKCOL']) {
    const unknown = await rawRequest('/v1/nothing-here', { method });
    t.is(unknown.status, 404, method);
    t.is(JSON.parse(unknown.body).error.code, 'not_found', method);
    t.is(unknown.headers.allow, undefined, method);
    const known = await rawRequest('/v1/time', { method });
    t.is(known.status, 405, method);
    t.regex(String(known.headers.allow), /GET/, method);
  }
});

test('a remembered route match answers each method on a path the same every time, and other spellings of the path as the router does', async (t) => {
  // The router remembers what /v1/time matches; the answers must not depend on what came before.
  for (let round = 0; round < 3; round += 1) {
    t.is((await gateway.json('/v1/time')).status, 200);
    const wrong = await gateway.json('/v1/time', { method: 'POST' });
    t.is(wrong.status, 405);
    t.regex(wrong.response.headers.get('allow') ?? '', /GET/);
    t.is((await gateway.request('/v1/time', { method: 'HEAD' })).status, 200);
    const options = await gateway.request('/v1/time', { method: 'OPTIONS' });
    t.is(options.status, 204);
    t.regex(options.headers.get('allow') ?? '', /OPTIONS/);
  }
  // Not remembered (spelled otherwise than registered): matched by the router's own rules, as before.
  t.is((await rawRequest('/v1/time/', { headers: { authorization: 'test-key-0123456789abcdef' } })).status, 200);
  t.is((await rawRequest('/V1/TIME', { headers: { authorization: 'test-key-0123456789abcdef' } })).status, 200);
});

test('400 body_too_deep also for depth reached through objects inside arrays; 32 levels of such mixing is read', async (t) => {
  const mixed = (levels: number) => {
    let value = '1';
    for (let level = 1; level < levels; level += 1) value = level % 2 === 0 ? `[${value}]` : `{"k":${value}}`;
    return `{"array":[1],"x":${value}}`;
  };
  // The outer object is one level: x holds 31 more (32 in all), then 33.
  t.is((await gateway.json('/v1/sort-array', postJson(mixed(32)))).status, 200);
  const { status, body } = await gateway.json('/v1/sort-array', postJson(mixed(33)));
  t.is(status, 400);
  t.is(body.error.code, 'body_too_deep');
});
