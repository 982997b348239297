import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { RENDER_QUEUE_NAME, RENDER_QUEUE_PREFIX } from '@utility-api/render-jobs';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';
import { startRedisCluster, type RunningCluster } from '../../support/cluster/redis-cluster.ts';

/**
 * A job the gateway waits on vanishes from Redis (what a failover does to a job that never reached
 * the replica, or a restart without persistence): the request is answered 503 queue_unavailable
 * as soon as the gateway notices, not 504 at the render deadline. No renderer runs, so the job
 * stays waiting until the queue's master forgets it.
 */
const RENDER_TIMEOUT_MS = 20_000;
let cluster: RunningCluster;
let gateway: GatewayProcess;

test.before(async () => {
  cluster = await startRedisCluster();
  gateway = await startGatewayProcess({ env: { REDIS_CLUSTER_NODES: cluster.nodesEnv, RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS) } });
});

test.after.always(async () => {
  await gateway?.stop();
  await cluster?.stop();
});

test('a waited-on job that Redis lost is a prompt 503 with Retry-After, not a 504 at the deadline', async (t) => {
  const master = await cluster.masterOf(await cluster.keySlot(RENDER_QUEUE_PREFIX));
  const redis = new Redis({ host: '127.0.0.1', port: master.port });
  try {
    const started = Date.now();
    const answer = fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customTag: 'lost in redis' }),
    });
    // Every job has a priority (its key's rank), so it waits in BullMQ's prioritized set.
    const waiting = `${RENDER_QUEUE_PREFIX}:${RENDER_QUEUE_NAME}:prioritized`;
    while ((await redis.zcard(waiting)) === 0) {
      if (Date.now() - started > RENDER_TIMEOUT_MS) throw new Error('the job never reached the queue');
      await sleep(20);
    }
    await redis.flushall();
    const response = await answer;
    const ms = Date.now() - started;
    const body = (await response.json()) as { error?: { code?: string } };
    t.is(response.status, 503, JSON.stringify(body));
    t.is(body.error?.code, 'queue_unavailable');
    t.is(response.headers.get('retry-after'), '1');
    // A 503 and not a 504 already says the gateway noticed before its deadline; the deadline bounds it.
    t.true(ms < RENDER_TIMEOUT_MS, `answered after ${ms} ms, before the ${RENDER_TIMEOUT_MS} ms deadline`);
    t.log(`answered 503 ${ms} ms after the request`);
  } finally {
    redis.disconnect();
  }
});
