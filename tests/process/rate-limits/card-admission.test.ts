/**
 * The one admission rule for cards, embedded mode over real HTTP: every card of a batch takes its
 * own slot of its key's CARDS_IN_FLIGHT_PER_KEY (waiting for one) and its own unit of the cards
 * quota, so parallel batches from one key never have more cards in progress than its slots, another
 * key's cards go through meanwhile, and a cards quota ends exactly at its number however many
 * batches or keys ask for cards at once.
 */
import { join } from 'node:path';
import test from 'ava';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { countsByMetric, makeAccount, makeKey } from '../../support/accounts/usage-helpers.ts';
import { eventually } from '../../helpers/processes.ts';
import { OTHER_API_KEY, postJson, startTestGateway, TEST_API_KEY, testEnvironment, type TestGateway } from '../../helpers/test-gateway.ts';
import { HELD_PREFIX, startHeldImageServer, type HeldImageServer } from '../../support/rate-limits/held-image-server.ts';

const USER_ID = '302050872383242240';
const TODAY = '2024-06-15';
/** The deployment's default slots per key (CARDS_IN_FLIGHT_PER_KEY): what the test holds the gateway to. */
const PER_KEY = loadGatewayConfig(testEnvironment('/tmp/unused')).rateLimits.cardsInFlightPerKey;
/** Parallel batches of one key, each of PER_KEY cards: today's batch drew PER_KEY at a time each. */
const BATCHES = PER_KEY;
const QUOTA = 10;

let held: HeldImageServer;
let gateway: TestGateway;
let store: AccountStore;
let cards = 0;
// The quota tests run first: the flood's held cards, if a gateway let too many in, would fill its render queue for the others.

test.before(async () => {
  held = await startHeldImageServer();
  gateway = await startTestGateway({
    render: true,
    env: {
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      RATE_LIMIT_PROFILE_IMAGE: '10000/60s',
      RENDER_WORKERS: '2',
      // The held backgrounds are held as long as the test needs: neither the fetch nor the card gives up first.
      FETCH_TIMEOUT_MS: '60000',
      RENDER_TIMEOUT_MS: '120000',
      USAGE_FLUSH_MS: '100',
      PLANS: `free:cards=1000,requests=100000;ten:cards=${QUOTA},requests=100000`,
    },
  });
  store = openSqliteAccountStore({ path: join(gateway.mediaDir, 'accounts.sqlite') });
});

test.after.always(async () => {
  held?.release();
  await store?.close();
  await gateway?.close();
  await held?.close();
});

/** A distinct card (identical ones would share a render), with a held background when `background` is given. */
function cardBody(background?: string) {
  cards += 1;
  return { userId: USER_ID, customTag: `admitted ${cards}`, ...(background === undefined ? {} : { customBackground: background }) };
}

function batch(key: string, size: number, background?: (index: number) => string) {
  const body = { cards: Array.from({ length: size }, (_, index) => cardBody(background?.(index))) };
  return gateway.json('/v1/profile-image/batch', postJson(body, { headers: { authorization: key } }));
}

/** The account's cards of today in the store, once the meter has flushed at least QUOTA of them (every answer above is counted already). */
async function cardsStored(accountId: string): Promise<number> {
  const stored = async () => countsByMetric(await store.usage(accountId, TODAY, TODAY))['cards png'] ?? 0;
  await eventually(async () => ((await stored()) >= QUOTA ? true : undefined), 10_000, 50);
  return stored();
}

function single(key: string) {
  const { userId, ...body } = cardBody();
  return gateway.json(`/v1/profile-image?userId=${userId}`, postJson(body, { headers: { authorization: key } }));
}

test.serial(`${BATCHES} parallel batches on a ${QUOTA}-card plan draw exactly ${QUOTA} cards; the others are 429 quota_exceeded`, async (t) => {
  await makeAccount(store, 'acct_batches', 'ten');
  const { key } = await makeKey(store, { accountId: 'acct_batches' });
  const answers = await Promise.all(Array.from({ length: BATCHES }, () => batch(key, PER_KEY)));
  const results = answers.flatMap((answer) => {
    t.is(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.results as { url?: string; error?: { code: string } }[];
  });
  t.is(results.filter((result) => result.url !== undefined).length, QUOTA);
  t.deepEqual([...new Set(results.filter((result) => result.error).map((result) => result.error!.code))], ['quota_exceeded']);
  t.is(await cardsStored('acct_batches'), QUOTA);
});

test.serial(`3 keys of one account on a ${QUOTA}-card plan draw exactly ${QUOTA} cards together`, async (t) => {
  await makeAccount(store, 'acct_keys', 'ten');
  const keys = await Promise.all([1, 2, 3].map(() => makeKey(store, { accountId: 'acct_keys' })));
  const answers = await Promise.all(keys.flatMap(({ key }) => Array.from({ length: PER_KEY }, () => single(key))));
  t.is(answers.filter((answer) => answer.status === 200).length, QUOTA);
  for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
    t.is(answer.status, 429);
    t.is(answer.body.error.code, 'quota_exceeded');
    t.truthy(answer.response.headers.get('retry-after'));
  }
  t.is(await cardsStored('acct_keys'), QUOTA);
});

test.serial("parallel batches from one key never have more cards in progress than its slots, and another key's cards all answer 200 meanwhile", async (t) => {
  let flood = 0;
  const batches = Array.from({ length: BATCHES }, () => batch(TEST_API_KEY, PER_KEY, () => `${held.url}${HELD_PREFIX}${(flood += 1)}.png`));
  // The key's slots are all taken by cards fetching a held background.
  await eventually(async () => (held.open >= PER_KEY ? true : undefined), 60_000, 25);

  // Another key's plain cards, while every card of the flood that got in is still held.
  const quiet = await Promise.all(Array.from({ length: PER_KEY - 1 }, () => single(OTHER_API_KEY)));
  t.deepEqual(quiet.map((answer) => answer.status), quiet.map(() => 200), JSON.stringify(quiet.map((answer) => answer.body?.error?.code)));
  t.is(held.seen, PER_KEY, `only ${PER_KEY} of the flood's ${BATCHES * PER_KEY} cards were let in while the first ones were held`);
  t.is(held.maxOpen, PER_KEY);

  held.release();
  const answers = await Promise.all(batches);
  for (const answer of answers) {
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.deepEqual(answer.body.results.map((result: { error?: unknown }) => result.error), answer.body.results.map(() => undefined), 'every card waited for a slot and was drawn');
  }
  t.is(held.seen, BATCHES * PER_KEY);
  t.true(held.maxOpen <= PER_KEY, `at most ${PER_KEY} cards of the key were ever in progress (saw ${held.maxOpen})`);
});
