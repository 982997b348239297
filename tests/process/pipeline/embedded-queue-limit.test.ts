import test from 'ava';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';
import { postCard } from '../../support/pipeline/worker-crash-scenario.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
let gateway: GatewayProcess;
let images: ImageServer;

test.before(async () => {
  images = await startSlowImageServer();
  gateway = await startGatewayProcess({ env: { API_KEYS: API_KEY, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RENDER_QUEUE_LIMIT: '1' } });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

test('embedded: beyond RENDER_QUEUE_LIMIT distinct cards, a new card is refused with 503 overloaded and Retry-After', async (t) => {
  const slowFetched = images.nextRequest(SLOW_PATH);
  // The first card holds the only place while its background drips in (see slow-image-server).
  const first = postCard(gateway.url, API_KEY, { customBackground: `${images.url}${SLOW_PATH}`, customTag: 'holds the only place' });
  await slowFetched;

  const refused = await postCard(gateway.url, API_KEY, { customTag: 'one too many' });
  t.is(refused.status, 503, JSON.stringify(refused.body));
  t.is(refused.body.error.code, 'overloaded');
  t.is(refused.headers.get('retry-after'), '1');

  // The same card as the one in progress is not a new card: it shares that render.
  const shared = postCard(gateway.url, API_KEY, { customBackground: `${images.url}${SLOW_PATH}`, customTag: 'holds the only place' });
  const [original, repeat] = await Promise.all([first, shared]);
  t.is(original.status, 200, JSON.stringify(original.body));
  t.is(repeat.status, 200);
  t.is(repeat.headers.get('x-card-render'), 'reused');
  t.is(repeat.body.url, original.body.url);

  // With the place free again, the refused card is drawn.
  const retried = await postCard(gateway.url, API_KEY, { customTag: 'one too many' });
  t.is(retried.status, 200, JSON.stringify(retried.body));
});
