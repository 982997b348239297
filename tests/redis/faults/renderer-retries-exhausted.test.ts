import test from 'ava';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { GATEWAY_ENV, postCard, startBacking, startRendererProcess, uniqueTag, type Backing } from '../../support/faults/fault-topology.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

/**
 * Short locks so each stall is noticed within about three seconds instead of twelve; the
 * mechanism (lock expiry, stalled check, `maxStalledCount: 1`) is the production one.
 */
const RENDERER_LOCKS = { LOCK_DURATION_MS: '2000', STALLED_INTERVAL_MS: '1000' };
/**
 * The longest deadline the gateway accepts, so a 503 well before it is the queue's verdict, not the
 * deadline, even on a loaded machine: the verdict takes two stall detections (each about
 * LOCK_DURATION_MS + STALLED_INTERVAL_MS), two slow fetches and three renderer boots.
 */
const RENDER_TIMEOUT_MS = 120_000;

let backing: Backing;
let images: ImageServer;
let gateway: GatewayProcess;
const renderers: ServiceProcess[] = [];

const startRenderer = async () => {
  const renderer = await startRendererProcess({ ...backing.env, ...RENDERER_LOCKS });
  renderers.push(renderer);
  return renderer;
};

test.before(async () => {
  images = await startSlowImageServer(3000);
  backing = await startBacking();
  await startRenderer();
  gateway = await startGatewayProcess({ env: { ...GATEWAY_ENV, ...backing.env, RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS) } });
});

test.after.always(async () => {
  await Promise.all([gateway?.stop(), ...renderers.map((renderer) => renderer.stop('SIGTERM'))]);
  await backing?.stop();
  await images?.close();
});

test('a job whose renderers die twice fails promptly with 503 render_failed and Retry-After, not at the deadline', async (t) => {
  t.timeout(RENDER_TIMEOUT_MS + 30_000);
  const started = performance.now();
  const firstFetch = images.nextRequest(SLOW_PATH);
  const poison = { customBackground: `${images.url}${SLOW_PATH}`, customTag: uniqueTag('dies twice') };
  const pending = postCard(gateway.url, poison);

  // First renderer dies mid-job: the job stalls once and goes back to the queue.
  await firstFetch;
  const secondFetch = images.nextRequest(SLOW_PATH);
  await renderers[0]!.stop('SIGKILL');
  const second = await startRenderer();

  // The second renderer picks it up (it fetches the image again) and dies as well.
  await secondFetch;
  await second.stop('SIGKILL');
  const thirdStarted = performance.now();
  const third = await startRenderer();

  const response = await pending;
  const afterThird = performance.now() - thirdStarted;
  const total = performance.now() - started;
  t.log(`503 after ${Math.round(total)} ms in all; ${Math.round(afterThird)} ms after the third renderer started (its boot included)`);

  t.is(response.status, 503, JSON.stringify(response.body));
  t.is(response.body.error.code, 'render_failed');
  t.regex(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  t.true(total < RENDER_TIMEOUT_MS / 2, `answered long before the ${RENDER_TIMEOUT_MS} ms deadline`);
  t.false(third.output().includes('"card rendered"'), 'the third renderer did not draw the twice-stalled job');
  t.is(images.requests.filter((path) => path === SLOW_PATH).length, 2, 'no third attempt was made');

  // The same card again is refused at once instead of killing more renderers.
  const retried = await postCard(gateway.url, poison);
  t.is(retried.status, 503, JSON.stringify(retried.body));
  t.is(retried.body.error.code, 'render_failed');
  t.is(images.requests.filter((path) => path === SLOW_PATH).length, 2, 'the retry started no new attempt');

  // The surviving renderer is healthy: the next card is drawn normally.
  const next = await postCard(gateway.url, { customTag: uniqueTag('after the failure') });
  t.is(next.status, 200, JSON.stringify(next.body));
});
