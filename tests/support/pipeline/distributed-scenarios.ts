import type { TestFn } from 'ava';
import { cardRenderedLines, readinessOnceReady } from '../../helpers/processes.ts';
import { startStackOn, type RedisTopology, type TopologyStack } from '../../helpers/redis-topology.ts';
import type { ImageServer } from './image-server.ts';
import { registerLeaderboardImageTests } from './leaderboard-image-suite.ts';
import { registerProfileImageTests, SECOND_API_KEY, startPipelineImageServer, SUITE_ENV, type PipelineTarget, USER_ID } from './profile-image-suite.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';

/**
 * The distributed pipeline: Redis (one server or a cluster), an S3 server, the gateway and two
 * renderer processes, as `./run stack` starts them; the shared profile-image tests and the ones
 * only a distributed topology has, registered under `mode` (the test names' prefix).
 */
export function registerDistributedScenarios(test: TestFn, topology: RedisTopology, mode: string): void {
  let stack: TopologyStack;
  let images: ImageServer;

  test.before(async () => {
    images = await startPipelineImageServer();
    stack = await startStackOn(topology, {
      renderers: 2,
      apiKeys: `${API_KEY},${SECOND_API_KEY}`,
      env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', RENDER_WORKERS: '1', ...SUITE_ENV },
    });
  });

  test.after.always(async () => {
    await stack?.stop();
    await images?.close();
  });

  const rendererOutputs = () => stack.renderers.map((renderer) => renderer.output());

  const target = (): PipelineTarget => ({
    url: stack.gatewayUrl,
    apiKey: API_KEY,
    images,
    rendersOf: async (mediaKey) => (await cardRenderedLines(rendererOutputs, mediaKey)).length,
    renderLogOf: (mediaKey) => cardRenderedLines(rendererOutputs, mediaKey),
  });

  registerProfileImageTests(test, target, mode);
  registerLeaderboardImageTests(test, target, mode);

  test(`${mode}: two renderer processes share the load`, async (t) => {
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        fetch(`${stack.gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
          method: 'POST',
          headers: { authorization: API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ customTag: `share ${index} ${Date.now()}` }),
        }),
      ),
    );
    for (const reply of replies) t.is(reply.status, 200);
    const mediaKeys = await Promise.all(replies.map(async (reply) => ((await reply.json()) as { url: string }).url.split('/').pop()!.split('.')[0]!));
    for (const mediaKey of mediaKeys) await cardRenderedLines(rendererOutputs, mediaKey);
    const jobsPerRenderer = stack.renderers.map((renderer) => mediaKeys.filter((mediaKey) => (renderer.output().split('\n').some((line) => line.includes('"card rendered"') && line.includes(mediaKey)))).length);
    t.true(jobsPerRenderer.every((count) => count > 0), `each renderer drew cards: ${jobsPerRenderer.join(', ')}`);
  });

  test(`${mode}: the gateway and the renderers run on the chosen Redis`, (t) => {
    t.regex(stack.gateway.output(), new RegExp(`"redis":"${topology}".*distributed mode`));
    t.is(stack.serviceEnv.REDIS_CLUSTER_NODES !== undefined, topology === 'cluster');
    t.is(stack.serviceEnv.REDIS_URL !== undefined, topology === 'single');
  });

  test(`${mode}: the gateway reports Redis as its backing store`, async (t) => {
    const response = await fetch(`${stack.gatewayUrl}/v1/status`, { headers: { authorization: API_KEY } });
    const body = (await response.json()) as any;
    t.is(body.database.status, 'online');
  });

  test(`${mode}: each renderer serves /healthz, /readyz and /metrics with render phases and queue wait`, async (t) => {
    await fetch(`${stack.gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customTag: `renderer metrics ${Date.now()}` }),
    });
    for (const renderer of stack.renderers) {
      const ready = /"health":"(http:[^"]+)"/.exec(renderer.output())?.[1];
      t.truthy(ready, 'the renderer logs its health URL');
      t.is((await fetch(`${ready}/healthz`)).status, 200);
      const readiness = await readinessOnceReady(`${ready}/readyz`);
      t.deepEqual(readiness, { status: 'ready', checks: { redis: 'ok', storage: 'ok' } });
      const metrics = await (await fetch(`${ready}/metrics`)).text();
      t.regex(metrics, /card_render_queue_wait_seconds_count \d/);
      t.regex(metrics, /card_render_pool_load \d/);
    }
    const gatewayMetrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    t.regex(gatewayMetrics, /card_render_queue_jobs\{state="completed"\} [1-9]/);
  });
}
