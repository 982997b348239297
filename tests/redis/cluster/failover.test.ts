import test from 'ava';
import type { TopologyStack } from '../../helpers/redis-topology.ts';
import { failoverUnderLoad, FAILOVER_TEST_BOUND_MS, startFailoverStack } from '../../support/cluster/failover-under-load.ts';

/**
 * A master of the Redis Cluster dies (SIGKILL) while cards are being asked for without pause: the
 * one whose slots hold the render queue. Its replica takes over; meanwhile every request is
 * answered, with its card or with a clean 503 and Retry-After, none hangs and none is a 500; once
 * the cluster is whole again, new cards render.
 */
let stack: TopologyStack;

test.before(async () => {
  stack = await startFailoverStack();
});

test.after.always(async () => {
  await stack?.stop();
});

test('a queue master killed under load: its replica takes over, every request gets its card or a clean 503, and cards render after', async (t) => {
  t.timeout(FAILOVER_TEST_BOUND_MS);
  await failoverUnderLoad(t, stack, await stack.cluster!.keySlot('{card-render}'), 'the render queue');
});
