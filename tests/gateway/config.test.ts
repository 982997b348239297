import { ConfigurationError } from '@utility-api/infra';
import test from 'ava';
import { defaultPublicBaseUrl, loadGatewayConfig } from '../../services/gateway/src/config.ts';

test('defaults: port 3000 on loopback, prod label, no keys, config frozen', (t) => {
  const config = loadGatewayConfig({});
  t.is(config.port, 3000);
  t.is(config.host, '127.0.0.1');
  t.is(config.publicBaseUrl, undefined);
  t.deepEqual(config.apiKeys, []);
  t.is(config.logLevel, 'info');
  t.is(config.deploymentEnvironment, 'prod');
  t.false(config.trustProxy);
  t.true(Object.isFrozen(config));
  t.true(Object.isFrozen(config.apiKeys));
});

test('reads every variable and trims list entries and trailing slashes', (t) => {
  const config = loadGatewayConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    PUBLIC_BASE_URL: 'https://cards.example.com/',
    API_KEYS: ' first-key-0123456789 , second-key-0123456789 ,',
    LOG_LEVEL: 'debug',
    DEPLOYMENT_ENVIRONMENT: 'staging',
    TRUST_PROXY: 'true',
  });
  t.is(config.port, 8080);
  t.is(config.publicBaseUrl, 'https://cards.example.com');
  t.deepEqual(config.apiKeys, ['first-key-0123456789', 'second-key-0123456789']);
  t.is(config.logLevel, 'debug');
  t.true(config.trustProxy);
});

test('empty values count as unset', (t) => {
  const config = loadGatewayConfig({ PORT: '', LOG_LEVEL: '  ' });
  t.is(config.port, 3000);
  t.is(config.logLevel, 'info');
});

test('reports every bad variable in one error', (t) => {
  const error = t.throws(
    () =>
      loadGatewayConfig({
        PORT: 'eighty',
        PUBLIC_BASE_URL: 'ftp://example.com',
        API_KEYS: 'short',
        LOG_LEVEL: 'loud',
        TRUST_PROXY: 'perhaps',
      }),
    { instanceOf: ConfigurationError },
  );
  const variables = error.problems.map((problem) => problem.variable.split('.')[0]).sort();
  t.deepEqual(variables, ['API_KEYS', 'LOG_LEVEL', 'PORT', 'PUBLIC_BASE_URL', 'TRUST_PROXY']);
  t.regex(error.message, /5 problems/);
  t.regex(error.message, /at least 16 characters/);
});

test('the request and header timeouts default to 30 s and 10 s; headers may not outlast the request', (t) => {
  const defaults = loadGatewayConfig({});
  t.is(defaults.requestTimeoutMs, 30_000);
  t.is(defaults.headersTimeoutMs, 10_000);
  t.is(loadGatewayConfig({ REQUEST_TIMEOUT_MS: '120000', HEADERS_TIMEOUT_MS: '60000' }).requestTimeoutMs, 120_000);
  const error = t.throws(() => loadGatewayConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '8000' }), { instanceOf: ConfigurationError });
  t.deepEqual(
    error.problems.map((problem) => problem.variable),
    ['HEADERS_TIMEOUT_MS'],
  );
  t.regex(error.message, /at most REQUEST_TIMEOUT_MS \(5000\)/);
});

test('PORT outside 0-65535 is refused', (t) => {
  t.throws(() => loadGatewayConfig({ PORT: '70000' }), { instanceOf: ConfigurationError });
  t.throws(() => loadGatewayConfig({ PORT: '-1' }), { instanceOf: ConfigurationError });
});

test('the default public URL names a reachable host', (t) => {
  t.is(defaultPublicBaseUrl('0.0.0.0', 3000), 'http://localhost:3000');
  t.is(defaultPublicBaseUrl('127.0.0.1', 80), 'http://127.0.0.1:80');
  t.is(defaultPublicBaseUrl('::1', 3000), 'http://[::1]:3000');
});

test('embedded render workers and their ceilings add up to at most 768 MiB, the 1 GiB tree less the gateway share', (t) => {
  const { renderPool } = loadGatewayConfig({}).rendering;
  t.true(renderPool.workers >= 1);
  t.true(renderPool.workers * renderPool.memoryLimitBytes <= 768 * 1024 * 1024, JSON.stringify(renderPool));
  t.true(renderPool.memoryLimitBytes >= 256 * 1024 * 1024);
  t.deepEqual(
    [renderPool.timeBudgetMs, renderPool.animatedTimeBudgetMs, renderPool.wallClockFactor],
    [5000, 18_000, 4],
  );
  // Two workers share the pool evenly; one alone keeps the usual 512 MiB ceiling.
  t.is(loadGatewayConfig({ RENDER_WORKERS: '2' }).rendering.renderPool.memoryLimitBytes, 384 * 1024 * 1024);
  t.is(loadGatewayConfig({ RENDER_WORKERS: '1' }).rendering.renderPool.memoryLimitBytes, 512 * 1024 * 1024);
  // A bigger pool budget gives more workers their share.
  t.is(loadGatewayConfig({ RENDER_POOL_MEMORY_MB: '4096', RENDER_WORKERS: '8' }).rendering.renderPool.memoryLimitBytes, 512 * 1024 * 1024);
});

test('workers or ceilings that do not fit the pool budget are refused with every other bad variable', (t) => {
  const error = t.throws(() => loadGatewayConfig({ RENDER_WORKERS: '2', RENDER_WORKER_MEMORY_MB: '512', PORT: 'eighty' }), { instanceOf: ConfigurationError });
  t.deepEqual(error.problems.map((problem) => problem.variable).sort(), ['PORT', 'RENDER_WORKER_MEMORY_MB']);
  t.regex(error.message, /need 1024 MiB, over the pool's 768 MiB/);
  const crowded = t.throws(() => loadGatewayConfig({ RENDER_WORKERS: '4' }), { instanceOf: ConfigurationError });
  t.deepEqual(crowded.problems.map((problem) => problem.variable), ['RENDER_WORKERS']);
  t.regex(crowded.message, /leave each 192 MiB/);
  t.throws(() => loadGatewayConfig({ RENDER_WALL_CLOCK_FACTOR: '1' }), { instanceOf: ConfigurationError });
});
