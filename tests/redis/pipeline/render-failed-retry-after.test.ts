import { setTimeout as sleep } from 'node:timers/promises';
import { RENDER_QUEUE_NAME, RENDER_QUEUE_PREFIX, RENDER_RETENTION } from '@utility-api/render-jobs';
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import { BLUE, encodePng, GREEN, quadrantCanvas, RED, WHITE } from '../../fixtures/images.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { png, startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';

/**
 * A card refused as `render_failed` is refused for RENDER_RETENTION.failedAgeSeconds: its
 * Retry-After says the whole wait on the first failure and what is left of it on a repeat, in both
 * run modes. The failure is a real one: at the smallest time budget a worker may have (100 ms), a
 * 16-megapixel background is still being decoded when the worker is killed.
 */
const HEAVY_PATH = '/heavy.png';
const FAILED_AGE = RENDER_RETENTION.failedAgeSeconds;
const ENV = { RENDER_TIME_BUDGET_MS: '100', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
/** Long enough between a failure and its repeat that a Retry-After still saying the whole wait is wrong. */
const PAUSE_MS = 2500;

let images: ImageServer;
let embedded: TestGateway;
let stack: LocalStack;

test.before(async () => {
  images = await startImageServer({ [HEAVY_PATH]: png(encodePng(quadrantCanvas(4000, 4000, [RED, GREEN, BLUE, WHITE]))) });
  [embedded, stack] = await Promise.all([
    startTestGateway({ render: true, env: ENV }),
    startLocalStack({ renderers: 1, apiKeys: TEST_API_KEY, env: { ...ENV, RENDER_WORKERS: '1' } }),
  ]);
});

test.after.always(async () => {
  await Promise.all([embedded?.close(), stack?.stop()]);
  await images?.close();
});

async function postCard(baseUrl: string, customTag: string) {
  const response = await fetch(`${baseUrl}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customBackground: `${images.url}${HEAVY_PATH}`, customTag }),
  });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code, retryAfter: Number(response.headers.get('retry-after')) };
}

/** When a request was sent and answered (ms, performance.now), with its answer. */
async function timedPost(baseUrl: string, customTag: string) {
  const sent = performance.now();
  const answer = await postCard(baseUrl, customTag);
  return { ...answer, sent, answered: performance.now() };
}

/**
 * A repeat's Retry-After is what is left of the wait that began with the failure, somewhere
 * between the first request being sent and answered: at least the wait less the time from that
 * send to the repeat's answer, at most the wait less the time from that answer to the repeat's send.
 */
function assertRemainingWait(t: ExecutionContext, first: { sent: number; answered: number }, repeat: Awaited<ReturnType<typeof timedPost>>, since: string) {
  const least = Math.floor(FAILED_AGE - (repeat.answered - first.sent) / 1000);
  const most = Math.ceil(FAILED_AGE - (repeat.sent - first.answered) / 1000);
  t.is(repeat.status, 503, since);
  t.is(repeat.code, 'render_failed', since);
  t.true(repeat.retryAfter >= least && repeat.retryAfter <= most, `${since}: Retry-After ${repeat.retryAfter}, expected ${least} to ${most}`);
  t.true(repeat.retryAfter < FAILED_AGE, since);
}

const heavyFetches = () => images.requests.filter((path) => path === HEAVY_PATH).length;

test.serial('embedded: the first render_failed says the whole wait, a repeat what is left of it', async (t) => {
  const fetchesBefore = heavyFetches();
  const first = await timedPost(embedded.url, 'embedded refused');
  t.is(first.status, 503);
  t.is(first.code, 'render_failed');
  t.is(first.retryAfter, FAILED_AGE);
  // sleep-ok: time has to pass for the Retry-After to shrink; the check allows for any longer pause.
  await sleep(PAUSE_MS);
  assertRemainingWait(t, first, await timedPost(embedded.url, 'embedded refused'), 'repeat');
  t.is(heavyFetches(), fetchesBefore + 1, 'the repeat was refused without drawing');
});

test.serial('distributed: the same from the gateway that saw the failure and from one that reads the failed job in Redis; a failed job past its age is drawn again', async (t) => {
  t.timeout(120_000);
  const fetchesBefore = heavyFetches();
  const first = await timedPost(stack.gatewayUrl, 'distributed refused');
  const aging = await timedPost(stack.gatewayUrl, 'distributed aged out');
  for (const answer of [first, aging]) {
    t.is(answer.status, 503);
    t.is(answer.code, 'render_failed');
    t.is(answer.retryAfter, FAILED_AGE, 'a first failure says the whole wait');
  }
  // sleep-ok: as above.
  await sleep(PAUSE_MS);
  assertRemainingWait(t, first, await timedPost(stack.gatewayUrl, 'distributed refused'), 'same gateway');

  // BullMQ removes a failed job past its age only when another job fails: one may linger. Aged
  // here by moving its finish time back, it must count as gone, not as refused for longer.
  const redis = new Redis(stack.redis.url, { lazyConnect: true });
  try {
    await redis.connect();
    const queueKey = `${RENDER_QUEUE_PREFIX}:${RENDER_QUEUE_NAME}`;
    const failedIds = await redis.zrange(`${queueKey}:failed`, '0', '-1');
    const jobsByTag = new Map<string, string>();
    for (const id of failedIds) jobsByTag.set(JSON.parse((await redis.hget(`${queueKey}:${id}`, 'data')) ?? '{}').options?.customTag, id);
    const agedId = jobsByTag.get('distributed aged out');
    t.truthy(agedId, `failed jobs: ${[...jobsByTag.keys()].join(', ')}`);
    await redis.hset(`${queueKey}:${agedId}`, 'finishedOn', String(Date.now() - (FAILED_AGE + 1) * 1000));
  } finally {
    redis.disconnect();
  }

  // A gateway that never saw either failure: it reads the jobs from Redis.
  await stack.gateway.stop('SIGTERM');
  const { ready } = await stack.restart(stack.gateway);
  await ready;
  t.is(heavyFetches(), fetchesBefore + 2);
  assertRemainingWait(t, first, await timedPost(stack.gatewayUrl, 'distributed refused'), 'fresh gateway');
  t.is(heavyFetches(), fetchesBefore + 2, 'the refused card was not drawn again');
  const retried = await timedPost(stack.gatewayUrl, 'distributed aged out');
  t.is(heavyFetches(), fetchesBefore + 3, 'the card whose failure aged out was drawn again');
  t.is(retried.code, 'render_failed');
  t.is(retried.retryAfter, FAILED_AGE, 'its new failure says the whole wait again');
});
