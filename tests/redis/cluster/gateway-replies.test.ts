import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { startStackOn, type TopologyStack } from '../../helpers/redis-topology.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

/**
 * Two gateways on one Redis Cluster, each reading only its own reply stream: identical requests on
 * both meet in one render (one job, both gateways registered as its waiters, the renderer answering
 * on both streams), and a gateway killed mid-card takes only its own waiters with it.
 */
const API_KEY = 'replies-key-0123456789abcdef';
/** The slow background's drip: each card is in flight at least this long, time enough to join it from the other gateway. */
const DRIP_MS = 3000;
/** An answer's bound: the drip, the gateway's render deadline (20 s default) and a loaded machine's margin. */
const ANSWER_BOUND_MS = DRIP_MS + 20_000 + 15_000;

let stack: TopologyStack;
let images: ImageServer;
let second: ServiceProcess | undefined;
let secondUrl: string;

test.before(async () => {
  images = await startSlowImageServer(DRIP_MS);
  stack = await startStackOn('cluster', {
    renderers: 1,
    apiKeys: API_KEY,
    env: { LOG_LEVEL: 'info', RENDER_WORKERS: '1', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMIT_PROFILE_IMAGE: '1000/60s' },
  });
});

test.after.always(async () => {
  await second?.stop('SIGKILL');
  await stack?.stop();
  await images?.close();
});

async function startSecondGateway(): Promise<void> {
  const port = await freeLoopbackPort();
  second = startServiceProcess({ name: 'gateway-2', entry: GATEWAY_ENTRY, env: { ...stack.serviceEnv, PORT: String(port), HOST: '127.0.0.1', API_KEYS: API_KEY } });
  await second.waitFor(/gateway listening/, 60_000);
  secondUrl = `http://127.0.0.1:${port}`;
}

interface Answer {
  status: number | 'network error';
  render?: string | null;
  url?: string;
}

async function askCard(gatewayUrl: string, tag: string): Promise<Answer> {
  try {
    const response = await fetch(`${gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customTag: tag, customBackground: `${images.url}${SLOW_PATH}` }),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS),
    });
    const body = (await response.json()) as { url?: string };
    return { status: response.status, render: response.headers.get('x-card-render'), url: body.url };
  } catch {
    return { status: 'network error' };
  }
}

/** Resolves once the slow server has seen `count` requests for the background in all (cards in flight). */
async function backgroundFetches(count: number): Promise<void> {
  const deadline = Date.now() + ANSWER_BOUND_MS;
  while (images.requests.filter((path) => path === SLOW_PATH).length < count) {
    if (Date.now() > deadline) throw new Error(`the renderer fetched fewer than ${count} backgrounds`);
    await sleep(20);
  }
}

const renderedLines = (mediaKey: string) => stack.renderers.flatMap((renderer) => renderer.output().split('\n')).filter((line) => line.includes('"card rendered"') && line.includes(mediaKey)).length;

test.serial('identical requests on two gateways draw one card', async (t) => {
  t.timeout(ANSWER_BOUND_MS + 90_000);
  await startSecondGateway();
  const fetchesBefore = images.requests.length;
  const first = askCard(stack.gatewayUrl, 'shared across gateways');
  // The job is being drawn (its background dripping) before the other gateway asks.
  await backgroundFetches(fetchesBefore + 1);
  const [a, b] = await Promise.all([first, askCard(secondUrl, 'shared across gateways')]);
  t.is(a.status, 200);
  t.is(b.status, 200);
  // Each gateway names its own address in the URL: the stored image is the same.
  t.is(new URL(a.url!).pathname, new URL(b.url!).pathname, 'both gateways answer the same stored card');
  t.deepEqual([a.render, b.render], ['new', 'reused'], 'the second gateway joined the first one\'s render');
  t.is(images.requests.length - fetchesBefore, 1, 'the background was fetched once');
  const mediaKey = /\/media\/([0-9a-f-]+)\./.exec(a.url!)?.[1] ?? '';
  // The renderer logs the card before answering, but its line may cross the pipe after the answer.
  for (const deadline = Date.now() + 10_000; renderedLines(mediaKey) === 0 && Date.now() < deadline; ) await sleep(50);
  t.is(renderedLines(mediaKey), 1, 'one render for both');
});

test.serial('a gateway killed mid-card loses only its own waiters', async (t) => {
  t.timeout(ANSWER_BOUND_MS + 90_000);
  if (!second) await startSecondGateway();
  const fetchesBefore = images.requests.length;
  // One card both gateways wait for, one each only: three jobs in flight.
  const doomedShared = askCard(stack.gatewayUrl, 'kill: shared');
  const doomedOwn = askCard(stack.gatewayUrl, 'kill: first gateway only');
  await backgroundFetches(fetchesBefore + 1);
  const survivorShared = askCard(secondUrl, 'kill: shared');
  const survivorOwn = askCard(secondUrl, 'kill: second gateway only');
  await backgroundFetches(fetchesBefore + 3);
  // The first gateway dies with every one of its waits registered; the second's must still be answered.
  await stack.gateway.stop('SIGKILL');
  const [shared, own] = await Promise.all([survivorShared, survivorOwn]);
  t.is(shared.status, 200, 'the card both waited for reaches the surviving gateway');
  t.is(own.status, 200, "the surviving gateway's own card is answered");
  t.deepEqual((await Promise.all([doomedShared, doomedOwn])).map((answer) => answer.status), ['network error', 'network error'], "the killed gateway's clients lost their connections");
  // Cards flow through the survivor afterwards as before.
  const after = await askCard(secondUrl, 'kill: after');
  t.is(after.status, 200);
});
