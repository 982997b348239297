import { once } from 'node:events';
import { connect } from 'node:net';
import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

const METHODS_WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

test('200 for GET with the documented fields', async (t) => {
  const { status, body, response } = await gateway.json('/v1/status');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(response.headers.get('cache-control'), 'no-store');
  t.deepEqual(Object.keys(body), ['status', 'latencyStable', 'latency', 'current_time', 'version', 'environment', 'database', 'request_details']);
  t.is(body.status, 'online');
  t.is(typeof body.latencyStable, 'boolean');
  t.regex(body.latency, /^\d+\.\d{2}ms$/);
  t.is(body.current_time, '2024-06-15T12:00:00.000Z');
  t.is(body.version, 'v1');
  t.is(body.environment, 'prod');
  t.is(body.database.status, 'online');
  t.true(['good', 'slow'].includes(body.database.latency));
  t.deepEqual(Object.keys(body.request_details), ['method', 'status_code', 'url', 'path', 'root_url', 'query', 'body', 'headers']);
  t.like(body.request_details, { method: 'GET', status_code: 200, url: '/v1/status', path: '/v1/status', root_url: '/v1/status', query: {}, body: {} });
});

test('200 for every method, each echoed in request_details', async (t) => {
  for (const method of ['GET', 'OPTIONS', ...METHODS_WITH_BODY]) {
    const init: RequestInit = METHODS_WITH_BODY.includes(method as (typeof METHODS_WITH_BODY)[number]) ? postJson({ via: method }, { method }) : { method };
    const { status, body } = await gateway.json('/v1/status', init);
    t.is(status, 200, method);
    t.is(body.request_details.method, method, method);
    t.is(body.request_details.status_code, 200, method);
    t.deepEqual(body.request_details.body, init.body === undefined ? {} : { via: method }, method);
  }
});

test('200 for GET, OPTIONS and DELETE without a body', async (t) => {
  for (const method of ['GET', 'OPTIONS', 'DELETE']) {
    const { status, body } = await gateway.json('/v1/status', { method });
    t.is(status, 200, method);
    t.deepEqual(body.request_details.body, {}, method);
  }
});

test('200 for POST, PUT and PATCH without a body', async (t) => {
  // fetch sends `Content-Length: 0` and no Content-Type for a body-less POST or PUT; the contract
  // accepts any method "with or without query and body".
  for (const method of ['POST', 'PUT', 'PATCH']) {
    const { status, body } = await gateway.json('/v1/status', { method });
    t.is(status, 200, method);
    t.is(body.request_details.method, method);
    t.deepEqual(body.request_details.body, {}, method);
  }
});

test('200 for HEAD with headers and no body', async (t) => {
  const response = await gateway.request('/v1/status', { method: 'HEAD' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(await response.text(), '');
});

test('200 echoes the url with its query string, and repeated parameters as arrays', async (t) => {
  const { status, body } = await gateway.json('/v1/status?tag=a&tag=b&name=Ada%20L&empty=&flag');
  t.is(status, 200);
  t.is(body.request_details.url, '/v1/status?tag=a&tag=b&name=Ada%20L&empty=&flag');
  t.is(body.request_details.path, '/v1/status');
  t.is(body.request_details.root_url, '/v1/status');
  t.deepEqual(body.request_details.query, { tag: ['a', 'b'], name: 'Ada L', empty: '', flag: '' });
});

test('url is the path plus query even for an absolute-form request target', async (t) => {
  const { port } = new URL(gateway.url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET http://api.example.com/v1/status?a=1 HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: ${TEST_API_KEY}\r\nConnection: close\r\n\r\n`);
  let answer = '';
  socket.setEncoding('utf8');
  for await (const chunk of socket) answer += chunk as string;
  t.regex(answer, /^HTTP\/1\.1 200/);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { request_details: { url: string; path: string } };
  t.is(body.request_details.url, '/v1/status?a=1');
  t.is(body.request_details.path, '/v1/status');
});

test('200 echoes a JSON object body', async (t) => {
  const sent = { name: 'Ada', count: 3, nested: { list: [1, 'two', null], ok: true } };
  const { status, body } = await gateway.json('/v1/status?x=1', postJson(sent));
  t.is(status, 200);
  t.deepEqual(body.request_details.body, sent);
  t.is(body.request_details.method, 'POST');
  t.is(body.request_details.url, '/v1/status?x=1');
  t.is(body.request_details.headers['content-type'], 'application/json');
});

test('200 echoes a form-urlencoded body', async (t) => {
  const { status, body } = await gateway.json('/v1/status', {
    method: 'PUT',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=Ada+Lovelace&tag=a&tag=b&note=%26%3D',
  });
  t.is(status, 200);
  t.deepEqual(body.request_details.body, { name: 'Ada Lovelace', tag: ['a', 'b'], note: '&=' });
});

test('200 echoes an empty JSON body as an empty object', async (t) => {
  const { status, body } = await gateway.json('/v1/status', postJson(''));
  t.is(status, 200);
  t.deepEqual(body.request_details.body, {});
});

test('200 echoes headers with lowercase names, including ones added by intermediaries', async (t) => {
  const { status, body } = await gateway.json('/v1/status', {
    headers: { 'X-Forwarded-For': '203.0.113.7', 'X-Custom-Header': 'Mixed Case Value', Accept: 'application/json' },
  });
  t.is(status, 200);
  const headers = body.request_details.headers;
  t.is(headers['x-forwarded-for'], '203.0.113.7');
  t.is(headers['x-custom-header'], 'Mixed Case Value');
  t.is(headers.accept, 'application/json');
  t.is(typeof headers.host, 'string');
  for (const name of Object.keys(headers)) t.is(name, name.toLowerCase());
});

test('200 shows authorization as [redacted] and never the key itself', async (t) => {
  for (const authorization of [TEST_API_KEY, `Bearer ${TEST_API_KEY}`]) {
    const response = await gateway.request('/v1/status?check=1', { headers: { authorization } });
    const text = await response.text();
    t.is(response.status, 200);
    t.is(JSON.parse(text).request_details.headers.authorization, '[redacted]');
    t.false(text.includes(TEST_API_KEY), authorization);
  }
});

test('200 redacts cookies, proxy credentials and x-api-key', async (t) => {
  const response = await gateway.request('/v1/status', {
    headers: { cookie: 'session=cookie-secret', 'proxy-authorization': 'Basic proxy-secret', 'x-api-key': 'header-secret' },
  });
  const text = await response.text();
  t.is(response.status, 200);
  t.like(JSON.parse(text).request_details.headers, { cookie: '[redacted]', 'proxy-authorization': '[redacted]', 'x-api-key': '[redacted]' });
  t.false(/secret/.test(text));
});

test('200 reports the DEPLOYMENT_ENVIRONMENT label', async (t) => {
  const staging = await startTestGateway({ env: { DEPLOYMENT_ENVIRONMENT: 'staging' } });
  try {
    const { status, body } = await staging.json('/v1/status');
    t.is(status, 200);
    t.is(body.environment, 'staging');
    t.is(body.version, 'v1');
  } finally {
    await staging.close();
  }
});

test('400 for a JSON body that is an array', async (t) => {
  const { status, body } = await gateway.json('/v1/status', postJson([1, 2]));
  t.is(status, 400);
  t.is(body.error.status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details, [{ in: 'body', field: 'body', message: 'must be a JSON object or a form' }]);
  t.is(typeof body.requestId, 'string');
});

test('400 for a body that is not valid JSON', async (t) => {
  const { status, body } = await gateway.json('/v1/status', postJson('{"a":'));
  t.is(status, 400);
  t.is(body.error.code, 'malformed_body');
});

test('415 for a text/plain body', async (t) => {
  const { status, body } = await gateway.json('/v1/status', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
  t.is(status, 415);
  t.is(body.error.status, 415);
  t.is(body.error.code, 'unsupported_media_type');
  t.is(typeof body.requestId, 'string');
});

test('401 without an API key, for any method', async (t) => {
  for (const method of ['GET', 'POST', 'OPTIONS']) {
    const { status, body } = await gateway.json('/v1/status', { method, headers: { authorization: '' } });
    t.is(status, 401, method);
    t.is(body.error.code, 'unauthorized', method);
  }
  const head = await gateway.request('/v1/status', { method: 'HEAD', headers: { authorization: '' } });
  t.is(head.status, 401);
});

test('413 for a body over 1 MB, as the document says', async (t) => {
  // Regression: the status operation did not document its 413.
  const contract = await loadContract(gateway.url);
  for (const method of METHODS_WITH_BODY) {
    const { status, body } = await gateway.json('/v1/status', postJson({ x: 'x'.repeat(1024 * 1024) }, { method }));
    t.is(status, 413, method);
    t.deepEqual(contract.check('/v1/status', method, 413, body), [], method);
  }
});
