import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ConfigurationError } from '@utility-api/infra';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { OTHER_API_KEY, postJson, readJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/**
 * Embedded mode (in-memory counters), real HTTP. Each scenario has its own gateway: auth failures
 * are per address. Scenarios with cards need the whole gateway; the others run on the app alone.
 */
const LIMITS = { RATE_LIMIT_DEFAULT: '5/60s', RATE_LIMIT_PROFILE_IMAGE: '2/60s', RATE_LIMIT_AUTH_FAILURES: '3/60s' };
const gateways: TestGateway[] = [];
async function gatewayWith(env: Record<string, string> = {}, options: { render?: boolean } = {}): Promise<TestGateway> {
  const gateway = await startTestGateway({ env: { ...LIMITS, ...env }, render: options.render === true });
  gateways.push(gateway);
  return gateway;
}
test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
});

const WRONG_KEY = 'wrong-key-0123456789abcdef';

test('each response carries the budget; the request past it is a 429 in the shared error body', async (t) => {
  const gateway = await gatewayWith();
  const contract = await loadContract(gateway.url);
  for (let used = 1; used <= 5; used += 1) {
    const response = await gateway.request('/v1/hex-to-rgb?hex=fff');
    t.is(response.status, 200);
    t.is(response.headers.get('ratelimit-limit'), '5');
    t.is(response.headers.get('ratelimit-remaining'), String(5 - used));
    t.is(response.headers.get('ratelimit-policy'), '5;w=60');
    const reset = Number(response.headers.get('ratelimit-reset'));
    t.true(reset >= 1 && reset <= 60, String(reset));
  }
  const refused = await gateway.json('/v1/hex-to-rgb?hex=fff');
  t.is(refused.status, 429);
  t.is(refused.body.error.code, 'rate_limited');
  t.is(refused.body.error.status, 429);
  t.regex(refused.body.error.message, /5 per 60 s/);
  t.is(refused.body.requestId, refused.response.headers.get('x-request-id'));
  const retryAfter = Number(refused.response.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  t.is(refused.response.headers.get('ratelimit-remaining'), '0');
  t.is(refused.response.headers.get('ratelimit-limit'), '5');
  t.deepEqual(contract.check('/v1/hex-to-rgb', 'GET', 429, refused.body), []);

  // Budgets are per key: the other key still has its own five.
  const other = await gateway.request('/v1/hex-to-rgb?hex=fff', { headers: { authorization: OTHER_API_KEY } });
  t.is(other.status, 200);
  t.is(other.headers.get('ratelimit-remaining'), '4');
  // Every light endpoint spends from the same budget.
  t.is((await gateway.request('/v1/coin-flip')).status, 429);
});

test('card renders have their own, stricter budget, shared by both profile-image paths', async (t) => {
  const gateway = await gatewayWith({}, { render: true });
  // Bad requests still spend it: the limit runs before validation (and before any render).
  for (const path of ['/v1/profile-image', '/v1/profile-image/1']) {
    const response = await gateway.request(path, postJson({}));
    t.is(response.status, 400, path);
    t.is(response.headers.get('ratelimit-limit'), '2');
  }
  const refused = await gateway.json('/v1/profile-image?userId=302050872383242240', postJson({}));
  t.is(refused.status, 429);
  t.regex(refused.body.error.message, /profile-image budget \(2 per 60 s\)/);
  const light = await gateway.request('/v1/coin-flip');
  t.is(light.status, 200);
  t.is(light.headers.get('ratelimit-limit'), '5');
  t.is(light.headers.get('ratelimit-remaining'), '4');
});

test('public routes are neither limited nor labelled', async (t) => {
  const gateway = await gatewayWith({ RATE_LIMIT_DEFAULT: '1/60s' });
  for (let index = 0; index < 4; index += 1) {
    for (const path of ['/v1/openapi.json', '/docs', '/healthz']) {
      const response = await fetch(`${gateway.url}${path}`);
      await response.arrayBuffer();
      t.not(response.status, 429, path);
      t.is(response.headers.get('ratelimit-limit'), null, path);
    }
  }
});

test('repeated wrong keys from one address: 429 before any key is checked, until the window ends', async (t) => {
  const gateway = await gatewayWith();
  for (const authorization of [WRONG_KEY, 'Basic abc', 'x'.repeat(300)]) {
    t.is((await gateway.request('/v1/coin-flip', { headers: { authorization } })).status, 401, authorization.slice(0, 10));
  }
  const crossing = await gateway.json('/v1/coin-flip', { headers: { authorization: WRONG_KEY } });
  t.is(crossing.status, 429);
  t.is(crossing.body.error.code, 'rate_limited');
  t.regex(crossing.body.error.message, /failed authentication attempts/);
  t.truthy(crossing.response.headers.get('retry-after'));
  // Even the right key is refused now: the address is blocked before keys are looked at.
  const valid = await gateway.json('/v1/coin-flip');
  t.is(valid.status, 429);
  t.regex(valid.body.error.message, /failed authentication attempts/);
  const retryAfter = Number(valid.response.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  // Public routes stay reachable.
  t.is((await fetch(`${gateway.url}/v1/openapi.json`)).status, 200);
});

test('a missing Authorization header guesses nothing and is not counted', async (t) => {
  const gateway = await gatewayWith();
  for (let index = 0; index < 10; index += 1) t.is((await fetch(`${gateway.url}/v1/coin-flip`)).status, 401);
  t.is((await gateway.request('/v1/coin-flip', { headers: { authorization: WRONG_KEY } })).status, 401);
  t.is((await gateway.request('/v1/coin-flip')).status, 200);
});

test('without TRUST_PROXY, X-Forwarded-For is ignored: one socket address, one budget of failures', async (t) => {
  const gateway = await gatewayWith();
  const statuses = [];
  for (let index = 0; index < 5; index += 1) {
    const response = await gateway.request('/v1/coin-flip', { headers: { authorization: WRONG_KEY, 'x-forwarded-for': `198.51.100.${index}` } });
    statuses.push(response.status);
  }
  t.deepEqual(statuses, [401, 401, 401, 429, 429]);
});

test('with TRUST_PROXY, failures count per forwarded client (the entry our proxy added)', async (t) => {
  const gateway = await gatewayWith({ TRUST_PROXY: 'true' });
  const from = (address: string, authorization = WRONG_KEY) =>
    gateway.request('/v1/coin-flip', { headers: { authorization, 'x-forwarded-for': address } }).then((response) => response.status);
  t.deepEqual([await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')], [401, 401, 401, 429]);
  t.is(await from('203.0.113.7', TEST_API_KEY), 429);
  t.is(await from('203.0.113.8', TEST_API_KEY), 200, 'another client behind the same proxy is not affected');
  // A client cannot pick its address: entries it sends itself come before the one the proxy appends.
  t.is(await from('203.0.113.8, 203.0.113.7', TEST_API_KEY), 429);
  // IPv6 clients are counted by /64.
  for (const suffix of ['1', '2', '3']) t.is(await from(`2001:db8:1:2::${suffix}`), 401);
  t.is(await from('2001:db8:1:2::4'), 429);
  t.is(await from('2001:db8:1:2:ffff::9', TEST_API_KEY), 429);
  t.is(await from('2001:db8:1:3::1', TEST_API_KEY), 200);
});

test('RATE_LIMITS=off: no budgets, no headers, no failure limit, no 429 in the document', async (t) => {
  const gateway = await gatewayWith({ RATE_LIMITS: 'off', RATE_LIMIT_DEFAULT: '1/60s', RATE_LIMIT_AUTH_FAILURES: '1/60s' });
  for (let index = 0; index < 5; index += 1) {
    const response = await gateway.request('/v1/coin-flip');
    t.is(response.status, 200);
    t.is(response.headers.get('ratelimit-limit'), null);
  }
  for (let index = 0; index < 5; index += 1) t.is((await gateway.request('/v1/coin-flip', { headers: { authorization: WRONG_KEY } })).status, 401);
  const document = await readJson(await fetch(`${gateway.url}/v1/openapi.json`));
  t.is(document.paths['/v1/coin-flip'].get.responses['429'], undefined);
  t.regex(document.info.description, /without rate limits/);
});

test('the document has a 429 on every authenticated operation and the RateLimit headers on its answers', async (t) => {
  const gateway = await gatewayWith({}, { render: true });
  const document = await readJson(await fetch(`${gateway.url}/v1/openapi.json`));
  const validation = await new Validator().validate(document);
  t.true(validation.valid, JSON.stringify(validation.errors));
  let operations = 0;
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      operations += 1;
      // Shared answers are references to `components.responses`.
      const resolve = (response: any) => (typeof response?.$ref === 'string' ? document.components.responses[response.$ref.split('/').pop()] : response);
      const limited = resolve(operation.responses['429']);
      t.truthy(limited, `${method} ${path}`);
      if (method !== 'head') t.deepEqual(limited.content['application/json'].schema, { $ref: '#/components/schemas/Error' });
      t.deepEqual(Object.keys(limited.headers).sort(), ['RateLimit-Limit', 'RateLimit-Policy', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id']);
      // The success answer: 200, or 201 (a template made), or 204 (one deleted).
      const success = operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['204'];
      t.truthy(success.headers['RateLimit-Remaining'], `${method} ${path}`);
      // A signed card link (`security: []`) sends no key, so it has no 401.
      if (operation.responses['401'] === undefined) t.deepEqual(operation.security, [], `${method} ${path}`);
      else t.deepEqual(Object.keys(resolve(operation.responses['401']).headers).filter((name) => name.startsWith('RateLimit')), [], 'a 401 comes before any budget is spent');
    }
  }
  t.true(operations >= 16);
  t.truthy(document.components.headers['Retry-After']);
  t.regex(document.info.description, /## Rate limits/);
  t.regex(document.info.description, /2 per minute for `POST \/v1\/profile-image`/);
});

test('configuration: defaults, and every bad budget reported at once', (t) => {
  const defaults = loadGatewayConfig({});
  t.deepEqual(defaults.rateLimits, {
    enabled: true,
    budgets: { default: { points: 600, durationSeconds: 60 }, profileImage: { points: 60, durationSeconds: 60 }, preview: { points: 30, durationSeconds: 60 } },
    authFailures: { points: 20, durationSeconds: 60 },
    cardsInFlightPerKey: 8,
  });
  t.is(defaults.keysFile, '.data/api-keys.json');
  t.is(defaults.databasePath, '.data/utility-api.sqlite');
  t.false(loadGatewayConfig({ RATE_LIMITS: 'off' }).rateLimits.enabled);
  t.deepEqual(loadGatewayConfig({ RATE_LIMIT_DEFAULT: '100/1m' }).rateLimits.budgets.default, { points: 100, durationSeconds: 60 });
  t.is(loadGatewayConfig({ CARDS_IN_FLIGHT_PER_KEY: '2' }).rateLimits.cardsInFlightPerKey, 2);
  const error = t.throws(
    () => loadGatewayConfig({ RATE_LIMIT_DEFAULT: 'lots', RATE_LIMIT_PROFILE_IMAGE: '0/60s', RATE_LIMIT_AUTH_FAILURES: '5/9d', RATE_LIMITS: 'maybe', CARDS_IN_FLIGHT_PER_KEY: '0' }),
    { instanceOf: ConfigurationError },
  );
  t.deepEqual(error.problems.map((problem) => problem.variable).sort(), [
    'CARDS_IN_FLIGHT_PER_KEY',
    'RATE_LIMITS',
    'RATE_LIMIT_AUTH_FAILURES',
    'RATE_LIMIT_DEFAULT',
    'RATE_LIMIT_PROFILE_IMAGE',
  ]);
});

test('leaderboard cards spend the same card budget as profile cards', async (t) => {
  const gateway = await gatewayWith({}, { render: true });
  // One bad profile card and one bad leaderboard spend the budget of 2 (the limit runs before validation)...
  const profile = await gateway.request('/v1/profile-image', postJson({}));
  t.is(profile.status, 400);
  const board = await gateway.request('/v1/leaderboard-image', postJson({ rows: [] }));
  t.is(board.status, 400);
  t.is(board.headers.get('ratelimit-limit'), '2');
  t.is(board.headers.get('ratelimit-remaining'), '0');
  // ...so the next of either is refused, naming the card budget.
  const refused = await gateway.json('/v1/leaderboard-image', postJson({ rows: [{ rank: 1, name: 'Ada' }] }));
  t.is(refused.status, 429);
  t.regex(refused.body.error.message, /profile-image budget \(2 per 60 s\)/);
  t.is((await gateway.request('/v1/coin-flip')).status, 200, 'the light endpoints keep their own budget');
});
