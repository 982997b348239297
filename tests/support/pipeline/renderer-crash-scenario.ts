import type { TestFn } from 'ava';
import { cardRenderedLines } from '../../helpers/processes.ts';
import { startStackOn, type RedisTopology, type TopologyStack } from '../../helpers/redis-topology.ts';
import type { ImageServer } from './image-server.ts';
import { SLOW_PATH, startSlowImageServer } from './slow-image-server.ts';
import { USER_ID } from './profile-image-suite.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';

/** A renderer process dies mid-job and the card still comes: registered per Redis topology. */
export function registerRendererCrashScenario(test: TestFn, topology: RedisTopology, mode: string): void {
  let stack: TopologyStack;
  let images: ImageServer;

  test.before(async () => {
    images = await startSlowImageServer();
    stack = await startStackOn(topology, {
      renderers: 1,
      apiKeys: API_KEY,
      env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', RENDER_WORKERS: '1', RENDER_TIMEOUT_MS: '45000' },
    });
  });

  test.after.always(async () => {
    await stack?.stop();
    await images?.close();
  });

  test(`${mode}: a renderer killed with SIGKILL mid-job does not lose the request: another renderer finishes it`, async (t) => {
    const firstFetch = images.nextRequest(SLOW_PATH);
    const pending = fetch(`${stack.gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customBackground: `${images.url}${SLOW_PATH}`, customTag: 'survives a crash' }),
    });
    await firstFetch;
    const doomed = stack.renderers[0]!;
    await doomed.stop('SIGKILL');
    t.is((await doomed.exited).signal, 'SIGKILL');
    const survivor = await stack.startRenderer();

    const response = await pending;
    const body = (await response.json()) as any;
    t.is(response.status, 200, JSON.stringify(body));
    t.false(doomed.output().includes('"card rendered"'), 'the killed renderer never finished the card');
    const mediaKey = (body.url as string).split('/').pop()!.split('.')[0]!;
    t.is((await cardRenderedLines(() => [survivor.output()], mediaKey)).length, 1, 'the new renderer drew it');
    t.true(survivor.output().includes('stalled') || images.requests.filter((path) => path === SLOW_PATH).length >= 2);
    const media = await fetch(body.url);
    t.is(media.status, 200);
    t.is(media.headers.get('content-type'), 'image/png');
  });
}
