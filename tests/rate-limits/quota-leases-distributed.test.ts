/**
 * The requests quota across three gateway processes on one redis-server: each leases blocks of the
 * account's month (requestLeaseSize) and spends them from memory, so together they answer no more
 * than the quota, and refuse only once at most one lease per gateway is left unspent.
 */
import test from 'ava';
import { startRedisServer, type RunningRedis } from '../../scripts/local-stack/redis-server.ts';
import { requestLeaseSize } from '../../services/gateway/src/accounts/quotas.ts';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../helpers/test-gateway.ts';

const GATEWAYS = 3;
// TEST_API_KEY is the local owner's: its account is on the `owner` plan, which PLANS limits here.
const PLAN = { name: 'owner', cards: 10, requests: 600 };
const LEASE = requestLeaseSize(PLAN);
let redis: RunningRedis;
let gateways: GatewayProcess[] = [];

test.before(async () => {
  redis = await startRedisServer({});
  const env = { REDIS_URL: redis.url, PLANS: `free:cards=1000,requests=100000;${PLAN.name}:cards=${PLAN.cards},requests=${PLAN.requests}`, RATE_LIMIT_DEFAULT: '100000/60s' };
  gateways = await Promise.all(Array.from({ length: GATEWAYS }, () => startGatewayProcess({ env })));
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
});

test(`${GATEWAYS} gateways sharing one account answer at most its requests quota, and refuse only when at most ${GATEWAYS} x ${LEASE} are left leased`, async (t) => {
  const statuses: number[] = [];
  const codes = new Set<string>();
  let next = 0;
  const asked = PLAN.requests + 200;
  // Twenty clients at once, each taking the gateways in turn.
  const client = async () => {
    while (next < asked) {
      const gateway = gateways[next++ % GATEWAYS]!;
      const response = await fetch(`${gateway.url}/v1/coin-flip`, { headers: { authorization: TEST_API_KEY } });
      statuses.push(response.status);
      if (response.status !== 200) codes.add(((await response.json()) as { error: { code: string } }).error.code);
      else await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 20 }, client));
  const answered = statuses.filter((status) => status === 200).length;
  t.true(answered <= PLAN.requests, `answered ${answered} of a ${PLAN.requests} quota`);
  t.true(answered >= PLAN.requests - GATEWAYS * LEASE, `answered ${answered}: refused with more than ${GATEWAYS} leases unspent`);
  t.deepEqual([...codes], ['quota_exceeded']);
});
