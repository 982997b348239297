/**
 * The one admission rule for cards in distributed mode: a gateway, redis-server, an S3 server and a
 * renderer that would take far more jobs at once than a key has slots (RENDER_CONCURRENCY 64), so
 * the only bound on a key's cards in progress is the gateway's admission. Parallel batches of one
 * key never have more cards in progress than its CARDS_IN_FLIGHT_PER_KEY, and another key's cards
 * all answer 200 meanwhile.
 */
import test from 'ava';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { eventually } from '../../helpers/processes.ts';
import { OTHER_API_KEY, TEST_API_KEY, testEnvironment } from '../../helpers/test-gateway.ts';
import { HELD_PREFIX, startHeldImageServer, type HeldImageServer } from '../../support/rate-limits/held-image-server.ts';

const USER_ID = '302050872383242240';
/** The deployment's default slots per key (CARDS_IN_FLIGHT_PER_KEY): what the test holds the gateway to. */
const PER_KEY = loadGatewayConfig(testEnvironment('/tmp/unused')).rateLimits.cardsInFlightPerKey;
const BATCHES = PER_KEY;

let held: HeldImageServer;
let stack: LocalStack;
let cards = 0;

test.before(async () => {
  held = await startHeldImageServer();
  stack = await startLocalStack({
    renderers: 1,
    apiKeys: `${TEST_API_KEY},${OTHER_API_KEY}`,
    env: {
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      RATE_LIMIT_PROFILE_IMAGE: '10000/60s',
      RENDER_WORKERS: '2',
      // Room for every card the gateway lets in, and many more: the renderer does not bound the flood.
      RENDER_CONCURRENCY: '64',
      // The held backgrounds are held as long as the test needs: neither the fetch nor the card gives up first.
      FETCH_TIMEOUT_MS: '60000',
      RENDER_TIMEOUT_MS: '120000',
    },
  });
});

test.after.always(async () => {
  held?.release();
  await stack?.stop();
  await held?.close();
});

function post(path: string, key: string, body: unknown) {
  return fetch(`${stack.gatewayUrl}${path}`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A distinct card (identical ones would share a render), with a held background when `background` is given. */
function cardBody(background?: string) {
  cards += 1;
  return { userId: USER_ID, customTag: `admitted ${cards}`, ...(background === undefined ? {} : { customBackground: background }) };
}

test("parallel batches from one key never have more cards in progress than its slots across the queue and the renderer, and another key's cards all answer 200 meanwhile", async (t) => {
  t.timeout(5 * 60_000);
  let flood = 0;
  const batches = Array.from({ length: BATCHES }, () =>
    post('/v1/profile-image/batch', TEST_API_KEY, { cards: Array.from({ length: PER_KEY }, () => cardBody(`${held.url}${HELD_PREFIX}${(flood += 1)}.png`)) }),
  );
  // The key's slots are all taken by cards whose background the renderer is fetching.
  await eventually(async () => (held.open >= PER_KEY ? true : undefined), 60_000, 25);

  const quiet = await Promise.all(
    Array.from({ length: PER_KEY - 1 }, async () => {
      const { userId, ...body } = cardBody();
      const response = await post(`/v1/profile-image?userId=${userId}`, OTHER_API_KEY, body);
      return { status: response.status, body: await response.text() };
    }),
  );
  t.deepEqual(quiet.map((answer) => answer.status), quiet.map(() => 200), JSON.stringify(quiet.map((answer) => answer.body.slice(0, 200))));
  t.is(held.seen, PER_KEY, `only ${PER_KEY} of the flood's ${BATCHES * PER_KEY} cards reached the renderer while the first ones were held`);
  t.is(held.maxOpen, PER_KEY);

  held.release();
  const answers = await Promise.all(batches.map(async (answer) => ({ status: (await answer).status, body: (await (await answer).json()) as { results: { error?: unknown }[] } })));
  for (const answer of answers) {
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.deepEqual(answer.body.results.map((result) => result.error), answer.body.results.map(() => undefined), 'every card waited for a slot and was drawn');
  }
  t.is(held.seen, BATCHES * PER_KEY);
  t.true(held.maxOpen <= PER_KEY, `at most ${PER_KEY} cards of the key were ever in progress (saw ${held.maxOpen})`);
});
