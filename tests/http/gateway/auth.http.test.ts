import test from 'ava';
import { OTHER_API_KEY, readJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

const PROTECTED = '/v1/hex-to-rgb?hex=fff';

test('200 with the raw key as the header value', async (t) => {
  const { status } = await gateway.json(PROTECTED, { headers: { authorization: TEST_API_KEY } });
  t.is(status, 200);
});

test('200 with a Bearer key, any scheme case', async (t) => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    const { status } = await gateway.json(PROTECTED, { headers: { authorization: `${scheme} ${TEST_API_KEY}` } });
    t.is(status, 200, scheme);
  }
});

test('200 with any key listed in API_KEYS', async (t) => {
  const { status } = await gateway.json(PROTECTED, { headers: { authorization: OTHER_API_KEY } });
  t.is(status, 200);
});

test('401 without an Authorization header, with a challenge', async (t) => {
  const response = await fetch(`${gateway.url}${PROTECTED}`);
  t.is(response.status, 401);
  t.is(response.headers.get('www-authenticate'), 'Bearer realm="utility-api"');
  const body = await readJson(response);
  t.is(body.error.code, 'unauthorized');
  t.regex(body.error.message, /Authorization header/);
  t.is(body.requestId, response.headers.get('x-request-id'));
});

test('401 with an unknown key says invalid_token', async (t) => {
  const response = await fetch(`${gateway.url}${PROTECTED}`, { headers: { authorization: 'wrong-key-0123456789abcdef' } });
  t.is(response.status, 401);
  t.is(response.headers.get('www-authenticate'), 'Bearer realm="utility-api", error="invalid_token"');
  t.is((await readJson(response)).error.message, 'Invalid API key.');
});

test('401 for other schemes, spaces and oversized values', async (t) => {
  for (const authorization of [`Basic ${TEST_API_KEY}`, `Token ${TEST_API_KEY}`, `${TEST_API_KEY} extra`, 'x'.repeat(300)]) {
    const response = await fetch(`${gateway.url}${PROTECTED}`, { headers: { authorization } });
    t.is(response.status, 401, authorization.slice(0, 20));
  }
});

test('only spaces and tabs around the key are skipped: a no-break space or other byte makes it another key', async (t) => {
  for (const authorization of [` ${TEST_API_KEY}\t`, `Bearer \t${TEST_API_KEY} `]) {
    const response = await fetch(`${gateway.url}${PROTECTED}`, { headers: { authorization } });
    t.is(response.status, 200, JSON.stringify(authorization));
  }
  for (const authorization of [`${TEST_API_KEY}\u00A0`, `\u00A0${TEST_API_KEY}`, `Bearer ${TEST_API_KEY}\u00A0`, `${TEST_API_KEY}\u00FF`]) {
    const response = await fetch(`${gateway.url}${PROTECTED}`, { headers: { authorization } });
    t.is(response.status, 401, JSON.stringify(authorization));
  }
});

test('OPTIONS on a keyed endpoint needs the key like any method; with it, 204 and the allowed methods', async (t) => {
  const anonymous = await fetch(`${gateway.url}/v1/hex-to-rgb`, { method: 'OPTIONS' });
  t.is(anonymous.status, 401);
  t.is((await readJson(anonymous)).error.code, 'unauthorized');
  const keyed = await fetch(`${gateway.url}/v1/hex-to-rgb`, { method: 'OPTIONS', headers: { authorization: TEST_API_KEY } });
  t.is(keyed.status, 204);
  t.is(keyed.headers.get('allow'), 'GET, HEAD, OPTIONS');
  t.is(await keyed.text(), '');
  const post = await fetch(`${gateway.url}/v1/sort-array`, { method: 'OPTIONS', headers: { authorization: TEST_API_KEY } });
  t.is(post.headers.get('allow'), 'POST, OPTIONS');
  // Public paths answer OPTIONS without a key.
  const docs = await fetch(`${gateway.url}/docs`, { method: 'OPTIONS' });
  t.is(docs.status, 200);
  t.regex(docs.headers.get('allow') ?? '', /GET/);
});

test('401 for a key sent in the query string instead of the header', async (t) => {
  for (const name of ['apiKey', 'api_key', 'key', 'authorization', 'token']) {
    const response = await fetch(`${gateway.url}${PROTECTED}&${name}=${TEST_API_KEY}`);
    t.is(response.status, 401, name);
  }
});

test('401 on every endpoint and method without a key', async (t) => {
  const document = await readJson(await fetch(`${gateway.url}/v1/openapi.json`));
  let checked = 0;
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item)) {
      const response = await fetch(`${gateway.url}${path}`, { method: method.toUpperCase() });
      t.is(response.status, 401, `${method} ${path}`);
      checked += 1;
    }
  }
  t.true(checked >= 16);
});

test('200 for the docs and the OpenAPI document without a key', async (t) => {
  t.is((await fetch(`${gateway.url}/docs`)).status, 200);
  t.is((await fetch(`${gateway.url}/v1/openapi.json`)).status, 200);
});
