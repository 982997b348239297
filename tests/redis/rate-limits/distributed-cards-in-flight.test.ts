/**
 * CARDS_IN_FLIGHT_PER_KEY across gateways, and abandoned jobs leaving the shared queue: two
 * gateway processes on one redis-server and no renderer, so every card stays queued (in
 * progress) until its client hangs up.
 */
import test from 'ava';
import { RENDER_QUEUE_NAME, RENDER_QUEUE_PREFIX, renderKeyJobsKey } from '@utility-api/render-jobs';
import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import { eventually } from '../../helpers/processes.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';

const PER_KEY = 4;
const USER_ID = '302050872383242240';
let redis: RunningRedis;
let client: Redis;
let gateways: GatewayProcess[] = [];

test.before(async () => {
  redis = await startRedisServer({});
  client = new Redis(redis.url);
  // A long deadline: the cards are meant to be in progress until the test hangs up on them.
  const env = { REDIS_URL: redis.url, CARDS_IN_FLIGHT_PER_KEY: String(PER_KEY), RENDER_TIMEOUT_MS: '60000', RATE_LIMIT_PROFILE_IMAGE: '1000/60s' };
  gateways = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  client?.disconnect();
  await redis?.stop();
});

let cards = 0;
function card(gateway: GatewayProcess, signal?: AbortSignal) {
  cards += 1;
  return fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: `queued ${cards}` }),
    signal,
  });
}

/** Jobs in the shared queue that no renderer has taken (every job has a priority: its key's rank). */
const queuedJobs = () => client.zcard(`${RENDER_QUEUE_PREFIX}:${RENDER_QUEUE_NAME}:prioritized`);

test.serial("a key's cards in flight are counted across gateways; hung-up cards leave the queue and give their slots back", async (t) => {
  const hangUp = new AbortController();
  const held = [0, 1, 2, 3].map((index) => card(gateways[index % 2]!, hangUp.signal).catch((error: unknown) => error));
  await eventually(async () => ((await queuedJobs()) === PER_KEY ? true : undefined), 30_000, 50);

  for (const gateway of gateways) {
    const refused = await card(gateway);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    t.is(refused.status, 429, JSON.stringify(body));
    t.is(body.error.code, 'too_many_cards_in_flight');
    t.regex(body.error.message, new RegExp(`already has ${PER_KEY} cards in progress`));
  }

  // Each job is queued behind the key's own: its priority is its rank among them, 1 to 4.
  const rankKeys = await client.keys(renderKeyJobsKey('*'));
  t.is(rankKeys.length, 1, 'one key asked');
  const jobIds = await client.zrange(rankKeys[0]!, '0', '-1');
  const priorities = await Promise.all(jobIds.map((jobId) => client.hget(`${RENDER_QUEUE_PREFIX}:${RENDER_QUEUE_NAME}:${jobId}`, 'priority')));
  t.deepEqual(priorities.map(Number).sort(), [1, 2, 3, 4]);

  hangUp.abort();
  for (const outcome of await Promise.all(held)) t.true(outcome instanceof Error);
  // Nobody waits for them: the jobs are removed from the queue, and the slots come back.
  await eventually(async () => ((await queuedJobs()) === 0 ? true : undefined), 30_000, 50);
  const again = new AbortController();
  const accepted = [0, 1, 2, 3].map((index) => card(gateways[index % 2]!, again.signal).catch((error: unknown) => error));
  await eventually(async () => ((await queuedJobs()) === PER_KEY ? true : undefined), 30_000, 50);
  again.abort();
  await Promise.all(accepted);
  await eventually(async () => ((await queuedJobs()) === 0 ? true : undefined), 30_000, 50);
  await eventually(async () => ((await client.keys(renderKeyJobsKey('*'))).length === 0 ? true : undefined), 10_000, 50);
  t.deepEqual(await client.keys(`${RENDER_QUEUE_PREFIX}:waiters:*`), [], 'no waiter counts are left behind');
});
