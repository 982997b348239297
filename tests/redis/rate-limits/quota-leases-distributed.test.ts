/**
 * Monthly quotas across three gateway processes sharing one redis-server, an S3 server and a
 * renderer, as `./run stack` runs them: each card takes its unit of the account's cards quota in the
 * store at admission, so together they draw exactly the quota; requests are leased in blocks
 * (requestLeaseSize) and spent from memory, so together they answer no more than the quota, and
 * refuse only once at most one lease per gateway is left unspent.
 */
import test from 'ava';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import { requestLeaseSize } from '../../../services/gateway/src/accounts/quotas.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';

const GATEWAYS = 3;
// TEST_API_KEY is the local owner's: its account is on the `owner` plan, which PLANS limits here.
const PLAN = { name: 'owner', cards: 1000, requests: 10_000 };
const LEASE = requestLeaseSize(PLAN);
/** Cards asked beyond the quota: each of them must be refused. */
const CARDS_OVER = 100;
/** Requests asked beyond what is left of the quota once the cards are drawn. */
const REQUESTS_OVER = GATEWAYS * LEASE + 200;
const USER_ID = '302050872383242240';

let stack: LocalStack;
let gateways: { url: string }[] = [];
let extra: GatewayProcess[] = [];

test.before(async () => {
  const env = {
    PLANS: `free:cards=1000,requests=100000;${PLAN.name}:cards=${PLAN.cards},requests=${PLAN.requests}`,
    RATE_LIMIT_DEFAULT: '1000000/60s',
    RATE_LIMIT_PROFILE_IMAGE: '1000000/60s',
    RENDER_WORKERS: '2',
    // The card clients below never have more cards in flight than the key's slots (8 by default).
  };
  stack = await startLocalStack({ renderers: 1, apiKeys: TEST_API_KEY, env });
  // Two more gateways on the same Redis and S3 (each its own temp folder for what it keeps locally).
  extra = await Promise.all([1, 2].map(() => startGatewayProcess({ env: stack.serviceEnv })));
  gateways = [{ url: stack.gatewayUrl }, ...extra];
});

test.after.always(async () => {
  await Promise.all(extra.map((gateway) => gateway.stop()));
  await stack?.stop();
});

interface Outcome {
  status: number;
  code?: string;
  message?: string;
}

async function outcome(response: Response): Promise<Outcome> {
  if (response.status === 200) {
    await response.arrayBuffer();
    return { status: 200 };
  }
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

/** `asked` requests made by `clients` clients at once, each taking the gateways in turn. */
async function spread(asked: number, clients: number, request: (url: string, index: number) => Promise<Response>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const client = async () => {
    while (next < asked) {
      const index = next++;
      outcomes.push(await outcome(await request(gateways[index % GATEWAYS]!.url, index)));
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return outcomes;
}

const refusedBy = (outcomes: Outcome[], quota: 'cards' | 'requests') =>
  outcomes.filter((one) => one.status === 429 && one.code === 'quota_exceeded' && one.message!.includes(`monthly ${quota} quota`)).length;

test.serial(`${GATEWAYS} gateways sharing one account draw exactly its ${PLAN.cards}-card quota, then answer at most its ${PLAN.requests}-request quota`, async (t) => {
  // A thousand real cards on a loaded 2-core machine: minutes, not the suite's default minute.
  t.timeout(15 * 60_000);
  const started = performance.now();
  // Distinct cards (identical ones would share one render), 8 clients: the key's slots, never more.
  const cards = await spread(PLAN.cards + CARDS_OVER, 8, (url, index) =>
    fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customTag: `quota ${index}` }),
    }),
  );
  const drawn = cards.filter((one) => one.status === 200).length;
  t.is(drawn, PLAN.cards, JSON.stringify(cards.filter((one) => one.status !== 200 && one.code !== 'quota_exceeded').slice(0, 3)));
  t.is(refusedBy(cards, 'cards'), CARDS_OVER, 'every card past the quota is refused by the cards quota');
  t.log(`cards: ${Math.round(performance.now() - started)} ms`);
  // Each card asked was a request of the month too.
  const left = PLAN.requests - cards.length;
  const light = await spread(left + REQUESTS_OVER, 20, (url) => fetch(`${url}/v1/coin-flip`, { headers: { authorization: TEST_API_KEY } }));
  t.log(`requests: ${Math.round(performance.now() - started)} ms; answered ${light.filter((one) => one.status === 200).length} of ${left} left`);
  const answered = light.filter((one) => one.status === 200).length;
  t.deepEqual([...new Set(light.filter((one) => one.status !== 200).map((one) => one.code))], ['quota_exceeded']);
  t.is(refusedBy(light, 'requests'), light.length - answered);
  t.true(answered <= left, `answered ${answered} of the ${left} requests left`);
  t.true(answered >= left - GATEWAYS * LEASE, `answered ${answered} of ${left}: refused with more than ${GATEWAYS} leases of ${LEASE} unspent`);
});
