import { gzipSync } from 'node:zlib';
import test from 'ava';
import { loadContract, type OpenApiContract } from '../../helpers/openapi-contract.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { RawHttpClient, type RawResponse } from '../../support/fuzz/support/raw-http.ts';

/**
 * The request limits the API description promises, at their edges. The plain cases (a 2 MB body,
 * text/plain, 40 levels, a top-level `__proto__`, 10 001 numbers, 65 letters) are tested with each
 * endpoint in tests/gateway; these are the boundaries and the routes those tests do not reach.
 */

const MB = 1024 * 1024;

let gateway: TestGateway;
let client: RawHttpClient;
let contract: OpenApiContract;
test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RATE_LIMITS: 'off', RENDER_WORKERS: '1' } });
  client = new RawHttpClient(gateway.url);
  contract = await loadContract(gateway.url);
});
test.after.always(async () => {
  client?.close();
  await gateway?.close();
});

const JSON_HEADERS = { authorization: TEST_API_KEY, 'content-type': 'application/json' };
const FORM_HEADERS = { authorization: TEST_API_KEY, 'content-type': 'application/x-www-form-urlencoded' };

function post(path: string, body: string | Buffer, headers: Record<string, string> = JSON_HEADERS): Promise<RawResponse> {
  return client.send({ method: 'POST', path, headers, body });
}

function parsed(response: RawResponse): any {
  return JSON.parse(response.body.toString('utf8'));
}

/** `{"array":[3,1,2],"pad":"xxx…"}` of exactly `bytes` bytes: sort-array ignores `pad`. */
function sortBodyOfSize(bytes: number): string {
  const empty = '{"array":[3,1,2],"pad":""}';
  return `{"array":[3,1,2],"pad":"${'x'.repeat(bytes - empty.length)}"}`;
}

test('a body of exactly 1 MB is read; one byte more is a 413', async (t) => {
  const atLimit = sortBodyOfSize(MB);
  t.is(Buffer.byteLength(atLimit), MB);
  const read = await post('/v1/sort-array', atLimit);
  t.is(read.status, 200);
  t.deepEqual(parsed(read).result, [1, 2, 3]);
  const over = await post('/v1/sort-array', sortBodyOfSize(MB + 1));
  t.is(over.status, 413);
  t.is(parsed(over).error.code, 'payload_too_large');
});

test('413 also for forms and card bodies over 1 MB', async (t) => {
  const form = await post('/v1/status', `a=${'x'.repeat(MB)}`, FORM_HEADERS);
  t.is(form.status, 413);
  t.deepEqual(contract.check('/v1/status', 'POST', 413, parsed(form)), []);
  const card = await post('/v1/profile-image?userId=302050872383242240', JSON.stringify({ customTag: 'x'.repeat(MB) }));
  t.is(card.status, 413);
  t.deepEqual(contract.check('/v1/profile-image', 'POST', 413, parsed(card)), []);
});

test('415 for a card body that is not JSON, as the document says', async (t) => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
    const response = await post('/v1/profile-image?userId=302050872383242240', '{"customTag":"x"}', { authorization: TEST_API_KEY, 'content-type': type });
    t.is(response.status, 415, type);
    t.deepEqual(contract.check('/v1/profile-image', 'POST', 415, parsed(response)), [], type);
  }
});

test('compressed bodies: the 1 MB limit counts inflated bytes, and an unknown encoding is a 415', async (t) => {
  const small = await post('/v1/sort-array', gzipSync('{"array":[3,1,2]}') , { ...JSON_HEADERS, 'content-encoding': 'gzip' });
  t.deepEqual(parsed(small).result, [1, 2, 3]);
  // 200 MB of JSON in about 200 kB of gzip: refused once 1 MB has been inflated.
  const bomb = gzipSync(`{"array":[1],"x":"${'x'.repeat(200 * MB)}"}`);
  t.true(bomb.length < MB);
  const refused = await post('/v1/sort-array', bomb , { ...JSON_HEADERS, 'content-encoding': 'gzip' });
  t.is(refused.status, 413);
  t.is(parsed(refused).error.code, 'payload_too_large');
  for (const encoding of ['compress', 'GZIP', 'x-gzip']) {
    const unknown = await post('/v1/sort-array', '{"array":[1]}', { ...JSON_HEADERS, 'content-encoding': encoding });
    t.is(unknown.status, 415, encoding);
    t.regex(parsed(unknown).error.message, /Content-Encoding of identity, gzip, deflate, br/, encoding);
  }
});

test('a body abandoned half-read closes its connection instead of breaking the next request', async (t) => {
  // Regression: the answer said keep-alive while the server dropped the socket with the rest of the
  // body unread, so the client's next request on it failed with ECONNRESET.
  const keepAlive = new RawHttpClient(gateway.url);
  try {
    for (const [name, body, status] of [
      ['plain text labelled gzip', Buffer.from(`{"x":"${'x'.repeat(900_000)}"}`), 400],
      ['a gzip bomb', gzipSync(`{"x":"${'x'.repeat(200 * MB)}"}`), 413],
    ] as const) {
      const failed = await keepAlive.send({ method: 'POST', path: '/v1/status', headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' }, body });
      t.is(failed.status, status, name);
      const next = await keepAlive.send({ method: 'GET', path: '/v1/time', headers: { authorization: TEST_API_KEY } });
      t.is(next.status, 200, name);
    }
  } finally {
    keepAlive.close();
  }
});

/** `{"array":[1],"x":[[…]]}` nested `depth` levels in all (the outer object is level 1). */
function bodyOfDepth(depth: number): string {
  const arrays = depth - 1;
  return `{"array":[1],"x":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;
}

test('JSON nested exactly 32 levels is read; 33 is a 400 body_too_deep', async (t) => {
  const at = await post('/v1/sort-array', bodyOfDepth(32));
  t.is(at.status, 200);
  const over = await post('/v1/sort-array', bodyOfDepth(33));
  t.is(over.status, 400);
  t.is(parsed(over).error.code, 'body_too_deep');
  const echo = await post('/v1/status', `{"a":${'{"b":'.repeat(31)}1${'}'.repeat(31)}}`);
  t.is(echo.status, 200, 'the status echo takes 32 levels of objects');
  t.is((await post('/v1/status', `{"a":${'{"b":'.repeat(32)}1${'}'.repeat(32)}}`)).status, 400);
});

test('__proto__ in a form, a query or an escaped JSON key pollutes nothing, and later requests are unaffected', async (t) => {
  const form = await post('/v1/status', '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&b=2', FORM_HEADERS);
  t.is(form.status, 200);
  t.is(parsed(form).request_details.body.b, '2');
  t.is(parsed(form).request_details.body.polluted, undefined);
  const query = await client.send({ method: 'GET', path: '/v1/status?__proto__[polluted]=1&__proto__=x&constructor[prototype][polluted]=1', headers: { authorization: TEST_API_KEY } });
  t.is(query.status, 200);
  for (const text of ['{"\\u005f_proto__":{"polluted":1}}', '{"a":{"__proto__":{"polluted":1}}}', '[{"__proto__":{"polluted":1}}]']) {
    const refused = await post('/v1/status', text);
    t.is(refused.status, 400, text);
    t.is(parsed(refused).error.code, 'malformed_body', text);
  }
  const card = await post('/v1/profile-image?userId=302050872383242240', '{"__proto__":{"polluted":1}}');
  t.is(card.status, 400);
  // The gateway runs in this process: its objects would show the pollution here.
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  const after = await post('/v1/status', '{"fresh":true}');
  t.deepEqual(parsed(after).request_details.body, { fresh: true });
  const sorted = await post('/v1/sort-array', '{"array":[2,1]}');
  t.deepEqual(parsed(sorted).result, [1, 2]);
});

/** The caps each endpoint's zod schema enforces, as the served document must state them. */
test('the caps on array length, word length and badge count are written in the OpenAPI document', (t) => {
  const sortArray = contract.document.paths['/v1/sort-array'].post;
  t.is(sortArray.requestBody.content['application/json'].schema.properties.array.maxItems, 10_000);
  t.regex(sortArray.description, /at most 10000 finite numbers/);

  const scramble = contract.document.paths['/v1/scramble'].get;
  const word = scramble.parameters.find((parameter: { name: string }) => parameter.name === 'word');
  // JSON Schema counts code points: the document states the 64-character limit as such (a word of
  // combined characters may be longer in code points; the server's hard cap there is 1024).
  t.is(word.schema.maxLength, 64);
  t.regex(word.description, /1 to 64 characters/);
  t.regex(scramble.description, /1 to 64 characters/);

  for (const path of ['/v1/profile-image', '/v1/profile-image/{userId}']) {
    const card = contract.document.paths[path].post;
    t.is(card.requestBody.content['application/json'].schema.properties.customBadges.maxItems, 8, path);
    t.regex(card.description, /at most 8 `customBadges`/, path);
  }
});

test('8 badges pass validation; 9 are a 400 naming customBadges', async (t) => {
  // Loopback URLs are refused by the renderer before any connection: 422, after validation.
  const badges = (count: number) => JSON.stringify({ customBadges: Array.from({ length: count }, (_, index) => `http://127.0.0.1/${index}.png`) });
  const eight = await post('/v1/profile-image/302050872383242240', badges(8));
  t.is(eight.status, 422);
  t.is(parsed(eight).error.code, 'image_unusable');
  const nine = await post('/v1/profile-image/302050872383242240', badges(9));
  t.is(nine.status, 400);
  t.deepEqual(parsed(nine).error.details, [{ in: 'body', field: 'customBadges', message: 'must have at most 8 badges' }]);
});
