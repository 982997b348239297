/** The noisy-neighbour scenario (noisy-neighbour.ts) on an embedded gateway: one process, two render workers. */
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { metricValue, NOISY_NEIGHBOUR_ENV, NOISY_NEIGHBOUR_KEYS, registerNoisyNeighbourTests, startSlowCardImages } from '../../support/pipeline/noisy-neighbour.ts';

let gateway: TestGateway;
let images: ImageServer;

test.before(async () => {
  images = await startSlowCardImages();
  gateway = await startTestGateway({ render: true, env: { ...NOISY_NEIGHBOUR_ENV, API_KEYS: NOISY_NEIGHBOUR_KEYS } });
});

test.after.always(async () => {
  await gateway?.close();
  await images?.close();
});

const metrics = async () => (await fetch(`${gateway.url}/metrics`)).text();

registerNoisyNeighbourTests(
  test,
  () => ({
    url: gateway.url,
    workers: Number(NOISY_NEIGHBOUR_ENV.RENDER_WORKERS),
    startsBeforeAbandonNoticed: 0,
    queuedCards: async () => metricValue(await metrics(), 'card_render_pool_waiting'),
    cardsInProgress: async () => metricValue(await metrics(), 'card_render_pool_load'),
    cardsDrawn: async () => metricValue(await metrics(), 'card_render_phase_seconds_count{phase="draw"}'),
  }),
  () => images,
  'embedded',
);
