/**
 * The document declares what the server really sends: the statuses any request may get, the
 * headers on each answer, bodies that are required, HEAD without a body and a typed card echo.
 * Each check makes a real request where the server decides, and reads the served document.
 */
import { join } from 'node:path';
import test from 'ava';
import { openSqliteAccountStore } from '../../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { createApiKey } from '../../../../services/gateway/src/auth/key-records.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';

type Json = Record<string, any>;
let gateway: TestGateway;
let document: Json;

test.before(async () => {
  gateway = await startTestGateway({ render: true });
  document = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as Json;
});
test.after.always(async () => {
  await gateway?.close();
});

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

/** A response object, with a `components.responses` reference followed. */
function response(operation: Json, status: number): Json | undefined {
  const found = operation.responses[String(status)] as Json | undefined;
  if (typeof found?.$ref === 'string') return document.components.responses[found.$ref.split('/').pop() ?? ''] as Json;
  return found;
}

function declaredHeaders(operation: Json, status: number): string[] {
  return Object.keys(response(operation, status)?.headers ?? {}).map((name) => name.toLowerCase());
}

test('every operation lists the answers any request may get: 400, 405, 408, 431, 500, and 401/429 behind a key, 413/415 with a body', (t) => {
  for (const { path, method, operation } of operations()) {
    const statuses = Object.keys(operation.responses);
    // A signed card link carries no key header (`security: []`): it is never a 401.
    const keyed = !(Array.isArray(operation.security) && operation.security.length === 0);
    for (const status of ['400', ...(keyed ? ['401'] : []), '405', '408', '429', '431', '500']) t.true(statuses.includes(status), `${method} ${path} lists ${status}`);
    t.is(statuses.includes('401'), keyed, `${method} ${path}: 401 exactly when a key is sent`);
    if (operation.requestBody) for (const status of ['413', '415']) t.true(statuses.includes(status), `${method} ${path} lists ${status}`);
  }
});

test('every documented answer declares X-Request-Id, and the server sends it on each kind', async (t) => {
  for (const { path, method, operation } of operations()) {
    for (const status of Object.keys(operation.responses)) t.true(declaredHeaders(operation, Number(status)).includes('x-request-id'), `${method} ${path} ${status}`);
  }
  const answers = [
    await fetch(`${gateway.url}/v1/coin-flip`, { headers: { Authorization: TEST_API_KEY } }),
    await fetch(`${gateway.url}/v1/coin-flip`),
    await fetch(`${gateway.url}/v1/coin-flip`, { method: 'POST', headers: { Authorization: TEST_API_KEY } }),
    await fetch(`${gateway.url}/v1/coin-flip?heads=200`, { headers: { Authorization: TEST_API_KEY } }),
  ];
  for (const answer of answers) t.truthy(answer.headers.get('x-request-id'), String(answer.status));
});

test('401 declares WWW-Authenticate and 405 declares Allow, as the server sends them', async (t) => {
  const coinFlip = document.paths['/v1/coin-flip'].get as Json;
  const unauthorized = await fetch(`${gateway.url}/v1/coin-flip`);
  t.is(unauthorized.status, 401);
  t.truthy(unauthorized.headers.get('www-authenticate'));
  t.true(declaredHeaders(coinFlip, 401).includes('www-authenticate'));
  const wrongMethod = await fetch(`${gateway.url}/v1/coin-flip`, { method: 'PUT', headers: { Authorization: TEST_API_KEY } });
  t.is(wrongMethod.status, 405);
  t.truthy(wrongMethod.headers.get('allow'));
  t.true(declaredHeaders(coinFlip, 405).includes('allow'));
});

test('answers past the key declare the RateLimit headers the server sends, and 429 declares Retry-After', async (t) => {
  const hexToRgb = document.paths['/v1/hex-to-rgb'].get as Json;
  const answer = await fetch(`${gateway.url}/v1/hex-to-rgb?hex=fff`, { headers: { Authorization: TEST_API_KEY } });
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) {
    t.truthy(answer.headers.get(name), name);
    t.true(declaredHeaders(hexToRgb, 200).includes(name), name);
  }
  t.true(declaredHeaders(hexToRgb, 429).includes('retry-after'));
});

test('the card answer declares X-Card-Render, Vary and, for image answers, Content-Location, ETag and X-Alt-Text; its 503 declares Retry-After', async (t) => {
  const operation = document.paths['/v1/profile-image'].post as Json;
  const answer = await fetch(`${gateway.url}/v1/profile-image?userId=302050872383242240`, {
    method: 'POST',
    headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json', Accept: 'image/png' },
    body: JSON.stringify({ customTag: 'declared headers' }),
  });
  t.is(answer.status, 200);
  const declared = declaredHeaders(operation, 200);
  for (const name of ['x-card-render', 'vary', 'content-location', 'etag', 'x-alt-text']) {
    t.truthy(answer.headers.get(name), `sent: ${name}`);
    t.true(declared.includes(name), `declared: ${name}`);
  }
  t.true(declaredHeaders(operation, 503).includes('retry-after'));
});

test('every operation but GET /v1/account declares the 403 of a key without its scope, naming the scope, as the server sends it', async (t) => {
  for (const { path, method, operation } of operations()) {
    const forbidden = response(operation, 403);
    if (operation.operationId === 'getAccount') {
      t.is(forbidden, undefined, 'any key may ask for its account');
      continue;
    }
    const scope = path.startsWith('/v1/profile-image') || path === '/v1/leaderboard-image' || path.startsWith('/v1/templates') || path === '/v1/card-link' ? 'cards' : 'utility';
    t.regex(forbidden?.description ?? '', new RegExp(`\`key_scope_forbidden\`.*\`${scope}\``), `${method} ${path}`);
  }
  const store = openSqliteAccountStore({ path: join(gateway.mediaDir, 'accounts.sqlite') });
  try {
    const { key } = await createApiKey(store, { name: 'cards only', now: new Date(), scopes: ['cards'] });
    const answer = await fetch(`${gateway.url}/v1/hex-to-rgb?hex=fff`, { headers: { Authorization: key } });
    t.is(answer.status, 403);
    t.is(((await answer.json()) as Json).error.code, 'key_scope_forbidden');
    t.truthy(answer.headers.get('x-request-id'));
  } finally {
    await store.close();
  }
});

test('bodies the server needs are required, optional ones are not', (t) => {
  const required = (path: string, method: string) => (document.paths[path][method] as Json).requestBody.required as boolean;
  t.true(required('/v1/sort-array', 'post'));
  t.true(required('/v1/json-validator', 'post'));
  t.false(required('/v1/status', 'post'));
  t.false(required('/v1/profile-image', 'post'));
  t.true(required('/v1/leaderboard-image', 'post'), 'a board needs its rows');
  const jsonBody = (document.paths['/v1/json-validator'].post as Json).requestBody.content['application/json'].schema as Json;
  t.deepEqual(jsonBody.required, ['json']);
});

test('HEAD answers are documented without a body, as the server sends them', async (t) => {
  const head = document.paths['/v1/status'].head as Json;
  for (const status of Object.keys(head.responses)) t.is(response(head, Number(status))?.content, undefined, status);
  const answer = await fetch(`${gateway.url}/v1/status`, { method: 'HEAD', headers: { Authorization: TEST_API_KEY } });
  t.is(answer.status, 200);
  t.is((await answer.arrayBuffer()).byteLength, 0);
});

test("the card answer's options echo is typed like the body it echoes", (t) => {
  for (const path of ['/v1/profile-image', '/v1/leaderboard-image']) {
    const operation = document.paths[path].post as Json;
    const options = operation.responses['200'].content['application/json'].schema.properties.options as Json;
    const body = operation.requestBody.content['application/json'].schema as Json;
    t.is(options.type, 'object', path);
    t.deepEqual(Object.keys(options.properties as object).sort(), Object.keys(body.properties as object).sort(), path);
    t.is(options.additionalProperties, false, path);
  }
});

test('the card operations document Accept with the types the server answers with, JSON as the example and the answer without Accept', async (t) => {
  for (const path of ['/v1/profile-image', '/v1/profile-image/{userId}', '/v1/leaderboard-image']) {
    const operation = document.paths[path].post as Json;
    const accept = (operation.parameters as Json[]).find((parameter) => parameter.in === 'header' && parameter.name === 'Accept');
    t.is(accept?.required, false, path);
    t.is(accept?.example, 'application/json', path);
    // Exactly the types the 200 documents: the parameter lists nothing the answer cannot be.
    t.deepEqual(accept?.schema.enum, Object.keys(operation.responses['200'].content as Json), path);
    t.deepEqual(operation['x-scalar-disable-parameters'], { 'default-headers': { default: { accept: true } } }, path);
  }
  // Operations whose answer Accept does not pick document no Accept.
  t.falsy((document.paths['/v1/coin-flip'].get as Json).parameters?.some((parameter: Json) => parameter.name === 'Accept'));
  const types = (document.paths['/v1/profile-image'].post as Json).parameters.find((parameter: Json) => parameter.name === 'Accept').schema.enum as string[];
  for (const type of [undefined, ...types]) {
    const answer = await fetch(`${gateway.url}/v1/profile-image?userId=302050872383242240`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json', ...(type === undefined ? {} : { Accept: type }) },
      body: JSON.stringify({ customTag: 'accept types' }),
    });
    t.is(answer.status, 200, String(type));
    t.is(answer.headers.get('content-type')?.split(';')[0], type ?? 'application/json', String(type));
    await answer.arrayBuffer();
  }
});

test("the card operation's description states the limits this gateway was configured with, not the defaults", async (t) => {
  const configured = await startTestGateway({ render: true,
    env: { FETCH_MAX_BYTES: String(3 * 1024 * 1024), FETCH_CARD_BUDGET_BYTES: String(5 * 1024 * 1024), FETCH_TIMEOUT_MS: '2500', RENDER_TIME_BUDGET_MS: '3000', RENDER_WALL_CLOCK_FACTOR: '6' },
  });
  try {
    const served = (await (await fetch(`${configured.url}/v1/openapi.json`)).json()) as Json;
    const description = String(served.paths['/v1/profile-image/{userId}'].post.description);
    for (const stated of ['2.5 s deadline', 'at most 3 MiB per image and 5 MiB per card', 'may take 3 s of CPU time', 'backstop of 6 times the budget']) {
      t.true(description.includes(stated), `"${stated}" in: ${description}`);
    }
    t.false(description.includes('example.com'), 'no example URL that can never work');
  } finally {
    await configured.close();
  }
});
