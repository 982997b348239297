/**
 * The noisy-neighbour scenario (noisy-neighbour.ts) in distributed mode: a gateway, Redis, an S3
 * server and one renderer with two render workers taking four jobs at a time (RENDER_CONCURRENCY's
 * default): the queue's order (BullMQ priorities), the renderer's lanes and its handing back of
 * animated jobs it has no room for are all in play.
 */
import type { TestFn } from 'ava';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import type { ImageServer } from './image-server.ts';
import { metricValue, NOISY_NEIGHBOUR_ENV, NOISY_NEIGHBOUR_KEYS, registerNoisyNeighbourTests, startSlowCardImages } from './noisy-neighbour.ts';

const text = async (url: string) => (await fetch(url)).text();
const queueJobs = (metrics: string, state: string) => metricValue(metrics, `card_render_queue_jobs{state="${state}"}`);
const queuedInRedis = (metrics: string) => queueJobs(metrics, 'waiting') + queueJobs(metrics, 'prioritized') + queueJobs(metrics, 'delayed');

/** Registers the scenario on a stack started with `env` on top of the scenario's settings (`RENDER_QUEUE_SHARDS`). */
export function registerDistributedFairness(test: TestFn, env: Record<string, string>, mode: string): void {
let stack: LocalStack;
let images: ImageServer;
let rendererMetricsUrl: string;

test.before(async () => {
  images = await startSlowCardImages();
  stack = await startLocalStack({ renderers: 1, apiKeys: NOISY_NEIGHBOUR_KEYS, env: { ...NOISY_NEIGHBOUR_ENV, LOG_LEVEL: 'info', ...env } });
  rendererMetricsUrl = `${/"health":"(http:[^"]+)"/.exec(stack.renderers[0]!.output())![1]}/metrics`;
});

test.after.always(async () => {
  await stack?.stop();
  await images?.close();
});

registerNoisyNeighbourTests(
  test,
  () => ({
    url: stack.gatewayUrl,
    workers: Number(NOISY_NEIGHBOUR_ENV.RENDER_WORKERS),
    startsBeforeAbandonNoticed: Number(NOISY_NEIGHBOUR_ENV.RENDER_WORKERS),
    // Jobs no renderer has taken yet, jobs a renderer handed back for a moment (delayed: the key's
    // animated cards already hold every worker it may use) and jobs a renderer took that wait for
    // one of its workers. Leaving out the handed-back ones made a full queue look short of cards.
    queuedCards: async () => {
      const [gateway, renderer] = await Promise.all([text(`${stack.gatewayUrl}/metrics`), text(rendererMetricsUrl)]);
      return queuedInRedis(gateway) + metricValue(renderer, 'card_render_pool_waiting');
    },
    cardsInProgress: async () => {
      const gateway = await text(`${stack.gatewayUrl}/metrics`);
      return queuedInRedis(gateway) + queueJobs(gateway, 'active');
    },
    cardsDrawn: async () => metricValue(await text(rendererMetricsUrl), 'card_render_phase_seconds_count{phase="draw"}'),
  }),
  () => images,
  mode,
);
}
