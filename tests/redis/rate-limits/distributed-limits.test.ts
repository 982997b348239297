import test from 'ava';
import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import { MISS_WAIT_MS } from '../../../services/gateway/src/auth/key-verifier.ts';
import { STORE_TIMEOUT_MS } from '../../../services/gateway/src/auth/rate-limits.ts';
import { freePort } from '../../helpers/processes.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { createKey, timeUntil } from '../../support/keys/key-processes.ts';

/** Two gateway processes sharing one real redis-server: the budgets hold across both. */
let redis: RunningRedis;
let redisPort: number;
let gateways: GatewayProcess[] = [];
let env: Record<string, string>;

test.before(async () => {
  redisPort = await freePort();
  redis = await startRedisServer({ port: redisPort });
  env = { REDIS_URL: redis.url, RATE_LIMIT_DEFAULT: '10/60s', RATE_LIMIT_AUTH_FAILURES: '4/60s', LOG_LEVEL: 'info' };
  gateways = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
});

async function call(gateway: GatewayProcess, key: string, path = '/v1/coin-flip') {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: key } });
  await response.arrayBuffer();
  return response;
}

test.serial('one budget across both gateways: exactly 10 of 20 alternating requests pass', async (t) => {
  const statuses: number[] = [];
  const remaining: string[] = [];
  for (let index = 0; index < 20; index += 1) {
    const response = await call(gateways[index % 2]!, TEST_API_KEY);
    statuses.push(response.status);
    remaining.push(response.headers.get('ratelimit-remaining') ?? '');
  }
  t.deepEqual(statuses, [...Array<number>(10).fill(200), ...Array<number>(10).fill(429)]);
  t.deepEqual(remaining.slice(0, 10), ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
  t.regex(gateways[0]!.process.output(), /"rateLimits":"redis"/);
});

test.serial('a managed key with its own budget is held to it on both gateways', async (t) => {
  const created = await createKey({ REDIS_URL: redis.url }, ['--rate', '3/1m']);
  const statuses = [];
  for (let index = 0; index < 6; index += 1) statuses.push((await call(gateways[index % 2]!, created.key)).status);
  t.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
  const client = new Redis(redis.url);
  try {
    // Counted in Redis under the key's prefix (a key over budget is then refused from each gateway's memory).
    const counted = Number(await client.get(`utility-api:ratelimit:default:${created.prefix}`));
    t.true(counted >= 4 && counted <= 6, String(counted));
    const ttl = await client.ttl(`utility-api:ratelimit:default:${created.prefix}`);
    t.true(ttl > 0 && ttl <= 60, String(ttl));
  } finally {
    client.disconnect();
  }
});

test.serial('auth failures are counted across gateways; the one that crosses blocks the address', async (t) => {
  const wrong = 'uk_live_zzzzzzzz_' + 'a'.repeat(32);
  const statuses = [];
  for (let index = 0; index < 5; index += 1) statuses.push((await call(gateways[index % 2]!, wrong)).status);
  t.deepEqual(statuses, [401, 401, 401, 401, 429]);
  // The fifth went to the first gateway, which now refuses this address before checking its key.
  const fresh = await createKey({ REDIS_URL: redis.url });
  t.is((await call(gateways[0]!, fresh.key)).status, 429);
  // The second learns on this address's next failure there.
  t.is((await call(gateways[1]!, wrong)).status, 429);
  t.is((await call(gateways[1]!, fresh.key)).status, 429);
});

test.serial('a Redis that stops answering costs at most a short timeout, then limits are counted in memory', async (t) => {
  const gateway = await startGatewayProcess({ env });
  try {
    const created = await createKey({ REDIS_URL: redis.url });
    t.is((await call(gateway, created.key)).status, 200);
    redis.child.kill('SIGSTOP');
    try {
      const started = performance.now();
      const statuses = [];
      for (let index = 0; index < 12; index += 1) statuses.push((await call(gateway, created.key)).status);
      const took = performance.now() - started;
      t.log(`12 requests with Redis frozen: ${took.toFixed(0)} ms`);
      // Fail-open to a per-process counter with the same budget: 10 allowed by the in-memory counter, then 429.
      t.deepEqual(statuses, [...Array<number>(10).fill(200), 429, 429]);
      // Designed for one store timeout and then no Redis for a while (about 250 ms in all); twelve
      // timeouts in a row would mean every request waited on the frozen Redis.
      t.true(took < 12 * STORE_TIMEOUT_MS, `${took} ms`);
      // An unknown key waits for the frozen store only briefly before it is refused.
      const unknownStarted = performance.now();
      t.is((await call(gateway, 'uk_live_yyyyyyyy_' + 'b'.repeat(32))).status, 401);
      t.true(performance.now() - unknownStarted < 10 * MISS_WAIT_MS);
    } finally {
      redis.child.kill('SIGCONT');
    }
  } finally {
    await gateway.stop();
  }
});

test.serial('with Redis gone, the light endpoints keep answering at once; counters are shared again once it is back', async (t) => {
  // A gateway of its own: the shared ones have blocked this address in the test above.
  const gateway = await startGatewayProcess({ env });
  gateways.push(gateway);
  const created = await createKey({ REDIS_URL: redis.url });
  t.is((await call(gateway, created.key)).status, 200);
  await redis.kill();
  const started = performance.now();
  const response = await call(gateway, created.key);
  t.is(response.status, 200, 'known keys keep working; the limit is counted in memory');
  t.is(response.headers.get('ratelimit-limit'), '10');
  // A refused connection is known at once; at worst the request waited out one store timeout.
  t.true(performance.now() - started < 10 * STORE_TIMEOUT_MS, 'answered within ten store timeouts');
  await timeUntil(async () => /Redis unavailable, counting in this process/.test(gateway.process.output()), 5000);

  redis = await startRedisServer({ port: redisPort });
  const client = new Redis(redis.url);
  try {
    // The fresh Redis has no managed keys, so this uses the bootstrap key, which still works.
    await timeUntil(async () => {
      await call(gateway, TEST_API_KEY, '/v1/hex-to-rgb?hex=fff');
      return (await client.keys('utility-api:ratelimit:default:*')).length > 0;
    }, 15_000, 250);
    t.pass();
  } finally {
    client.disconnect();
  }
});
