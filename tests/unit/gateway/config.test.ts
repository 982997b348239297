import { ConfigurationError } from '@utility-api/infra';
import test from 'ava';
import { defaultPublicBaseUrl, loadGatewayConfig } from '../../../services/gateway/src/config.ts';

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

test('embedded render workers share a 768 MiB pool budget, the 1 GiB tree less the gateway share, one animated card at a time', (t) => {
  const { renderPool } = loadGatewayConfig({}).rendering;
  t.true(renderPool.workers >= 1);
  t.is(renderPool.poolMemoryLimitBytes, 768 * 1024 * 1024);
  t.true(renderPool.memoryLimitBytes <= renderPool.poolMemoryLimitBytes!, JSON.stringify(renderPool));
  t.true(renderPool.memoryLimitBytes >= 256 * 1024 * 1024);
  t.is(renderPool.animatedAtOnce, 1, 'two animated cards at their peak do not fit 768 MiB');
  t.deepEqual(
    [renderPool.timeBudgetMs, renderPool.animatedTimeBudgetMs, renderPool.wallClockFactor],
    [5000, 18_000, 4],
  );
  // Each worker may use what the others leave of the pool, up to the usual 512 MiB ceiling.
  t.is(loadGatewayConfig({ RENDER_WORKERS: '2' }).rendering.renderPool.memoryLimitBytes, 512 * 1024 * 1024);
  // A bigger pool budget holds more animated cards at once.
  const big = loadGatewayConfig({ RENDER_POOL_MEMORY_MB: '4096', RENDER_WORKERS: '8' }).rendering.renderPool;
  t.deepEqual([big.memoryLimitBytes, big.animatedAtOnce], [512 * 1024 * 1024, 9]);
});

test('workers or ceilings that do not fit the pool budget are refused with every other bad variable', (t) => {
  const error = t.throws(() => loadGatewayConfig({ RENDER_WORKER_MEMORY_MB: '1024', PORT: 'eighty' }), { instanceOf: ConfigurationError });
  t.deepEqual(error.problems.map((problem) => problem.variable).sort(), ['PORT', 'RENDER_WORKER_MEMORY_MB']);
  t.regex(error.message, /a render worker of 1024 MiB does not fit the pool's 768 MiB/);
  const crowded = t.throws(() => loadGatewayConfig({ RENDER_WORKERS: '4' }), { instanceOf: ConfigurationError });
  t.deepEqual(crowded.problems.map((problem) => problem.variable), ['RENDER_WORKERS']);
  t.regex(crowded.message, /leave each 192 MiB/);
  t.throws(() => loadGatewayConfig({ RENDER_WALL_CLOCK_FACTOR: '1' }), { instanceOf: ConfigurationError });
});

test("each package's variables (render pool, Discord, fetching, media) reach its settings", (t) => {
  const { rendering } = loadGatewayConfig({
    RENDER_TIME_BUDGET_MS: '7000',
    DISCORD_BOT_TOKEN: 'bot-token',
    DISCORD_API_BASE_URL: 'http://127.0.0.1:9000/api/',
    PROFILE_CACHE_TTL_SECONDS: '60',
    FETCH_ALLOW_PRIVATE_HOSTS: '10.0.0.0/8, images.internal',
    FETCH_MAX_BYTES: '2048',
    MEDIA_DIR: '/var/cards',
    S3_ENDPOINT: 'http://minio:9000',
    S3_ACCESS_KEY: 'access',
    S3_SECRET_KEY: 'secret',
  });
  t.is(rendering.renderPool.timeBudgetMs, 7000);
  t.deepEqual(rendering.discord, { token: 'bot-token', apiBaseUrl: 'http://127.0.0.1:9000/api', cdnBaseUrl: 'https://cdn.discordapp.com' });
  t.is(rendering.profileCacheTtlMs, 60_000);
  t.deepEqual(rendering.fetch, { allowPrivateHosts: ['10.0.0.0/8', 'images.internal'], maxBytes: 2048, cardBudgetBytes: 24 * 1024 * 1024, deadlineMs: 5000 });
  t.deepEqual(rendering.media, {
    ttlDays: 30,
    directory: '/var/cards',
    s3: { endpoint: 'http://minio:9000', accessKey: 'access', secretKey: 'secret', bucket: 'cards', region: 'us-east-1' },
  });
});

test("bad variables of every package, and combinations that do not hold, are reported in one error with the gateway's own", (t) => {
  const error = t.throws(
    () =>
      loadGatewayConfig({
        PORT: 'eighty',
        RENDER_ANIMATED_TIME_BUDGET_MS: '50',
        RENDER_WORKERS: '4',
        DISCORD_CDN_BASE_URL: 'ftp://cdn.example.com',
        PROFILE_CACHE_TTL_SECONDS: '0',
        FETCH_TIMEOUT_MS: 'soon',
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: 'No_Such_Bucket',
      }),
    { instanceOf: ConfigurationError },
  );
  t.deepEqual(error.problems.map((problem) => problem.variable).sort(), [
    'DISCORD_CDN_BASE_URL',
    'FETCH_TIMEOUT_MS',
    'PORT',
    'PROFILE_CACHE_TTL_SECONDS',
    'RENDER_ANIMATED_TIME_BUDGET_MS',
    'RENDER_WORKERS',
    'S3_ACCESS_KEY',
    'S3_BUCKET',
    'S3_SECRET_KEY',
  ]);
  t.regex(error.message, /RENDER_WORKERS: 4 render workers in 768 MiB leave each 192 MiB/);
  t.regex(error.message, /S3_ACCESS_KEY: is required when any S3_\* variable is set/);
  t.regex(error.message, /PROFILE_CACHE_TTL_SECONDS: must be at least 1/);
});
