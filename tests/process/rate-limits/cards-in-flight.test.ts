/**
 * CARDS_IN_FLIGHT_PER_KEY over real HTTP, embedded mode: cards whose background drips in slowly
 * stay in progress, so a key's ninth concurrent card is refused while another key's goes through,
 * and every slot comes back however its request ended (answer, error, render deadline, hang-up).
 */
import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { eventually } from '../../helpers/processes.ts';
import { OTHER_API_KEY, postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

const USER_ID = '302050872383242240';
const PER_KEY = 8;
/** The slow image takes this long, so its cards are in progress at least that long (above the 2 s render deadline of the test that needs one). */
const DRIP_MS = 2500;
let images: ImageServer;
const gateways: TestGateway[] = [];
let batch = 0;

test.before(async () => {
  images = await startSlowImageServer(DRIP_MS);
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await images?.close();
});

async function gatewayWith(env: Record<string, string> = {}): Promise<TestGateway> {
  const gateway = await startTestGateway({ render: true,
    env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMIT_PROFILE_IMAGE: '1000/60s', RENDER_WORKERS: '2', ...env },
  });
  gateways.push(gateway);
  return gateway;
}

/** A distinct card (identical ones would share a render) whose background is `path`. */
function card(gateway: TestGateway, key: string, path: string, init: RequestInit = {}) {
  batch += 1;
  const body = { customTag: `in flight ${batch}`, customBackground: `${images.url}${path}` };
  return gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson(body, { ...init, headers: { authorization: key } }));
}

/** Resolves once the image server has seen `count` more requests for `path` than `before`. */
async function imageRequests(path: string, before: number, count: number): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 25) {
    if (images.requests.filter((seen) => seen === path).length - before >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the image server did not see ${count} requests for ${path}`);
}

const slowSeen = () => images.requests.filter((seen) => seen === SLOW_PATH).length;

test.serial('the ninth card in flight for one key is a 429 with Retry-After; another key still gets through; the slots come back', async (t) => {
  const gateway = await gatewayWith();
  const contract = await loadContract(gateway.url);
  const before = slowSeen();
  const first = Array.from({ length: PER_KEY }, () => card(gateway, TEST_API_KEY, SLOW_PATH));
  // All eight are past the limiter and fetching their background when the server has seen eight requests.
  await imageRequests(SLOW_PATH, before, PER_KEY);

  const refused = await card(gateway, TEST_API_KEY, SLOW_PATH);
  t.is(refused.status, 429, JSON.stringify(refused.body));
  t.is(refused.body.error.code, 'too_many_cards_in_flight');
  t.regex(refused.body.error.message, /already has 8 cards in progress/);
  t.is(refused.response.headers.get('retry-after'), '1');
  t.truthy(refused.response.headers.get('ratelimit-limit'), 'the budget headers are there as on every limited answer');
  t.deepEqual(contract.check('/v1/profile-image', 'POST', 429, refused.body), []);

  const other = card(gateway, OTHER_API_KEY, SLOW_PATH);
  const answers = await Promise.all([...first, other]);
  for (const answer of answers) t.is(answer.status, 200, JSON.stringify(answer.body));

  // Every slot came back: eight at once again, none refused.
  const again = await Promise.all(Array.from({ length: PER_KEY }, () => card(gateway, TEST_API_KEY, SLOW_PATH)));
  t.deepEqual(again.map((answer) => answer.status), Array.from({ length: PER_KEY }, () => 200));
});

test.serial('slots come back after errors, the render deadline and clients that hang up', async (t) => {
  // The render deadline passes before the slow image has arrived (DRIP_MS is a lower bound on those
  // cards), and leaves a missing image's 422 twice the least deadline allowed on a loaded machine.
  const renderTimeoutMs = 2000;
  const gateway = await gatewayWith({ RENDER_TIMEOUT_MS: String(renderTimeoutMs) });
  const eightAtOnce = (path: string, init?: RequestInit) => Promise.all(Array.from({ length: PER_KEY }, () => card(gateway, TEST_API_KEY, path, init)));

  const failed = await eightAtOnce('/missing.png');
  t.deepEqual(failed.map((answer) => answer.status), Array.from({ length: PER_KEY }, () => 422));

  const late = await eightAtOnce(SLOW_PATH);
  t.deepEqual(late.map((answer) => answer.status), Array.from({ length: PER_KEY }, () => 504));

  // Hang up on eight cards once they are in progress. Their slots are held until the gateway stops
  // waiting for those cards (the render deadline), since the renders go on.
  const before = slowSeen();
  const hangUp = new AbortController();
  const abandoned = eightAtOnce(SLOW_PATH, { signal: hangUp.signal }).catch((error: unknown) => error);
  await imageRequests(SLOW_PATH, before, PER_KEY);
  hangUp.abort();
  t.true((await abandoned) instanceof Error);

  // Eight at once again, until none is a 429: the slots come back once the render deadline has
  // passed. Had any slot leaked, every try would hold a 429, and the wait fails at its backstop.
  const after = await eventually(async () => {
    const statuses = (await eightAtOnce('/missing.png')).map((answer) => answer.status);
    return statuses.includes(429) ? undefined : statuses;
  }, 15 * renderTimeoutMs, 250);
  t.deepEqual(after, Array.from({ length: PER_KEY }, () => 422));
});
