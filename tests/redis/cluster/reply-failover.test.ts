import test from 'ava';
import { Redis } from 'ioredis';
import type { TopologyStack } from '../../helpers/redis-topology.ts';
import { failoverUnderLoad, FAILOVER_TEST_BOUND_MS, startFailoverStack } from '../../support/cluster/failover-under-load.ts';

/**
 * The master holding the gateway's reply stream (where renderers put its cards' answers) dies under
 * load, on a master other than the render queue's. Answers added to the stream that never reached
 * the replica, and those added while the slot had no master, are found by the waiters' recheck of
 * the job: every request still gets its card or a clean 503, none hangs past the deadline.
 */
let stack: TopologyStack;

test.before(async () => {
  stack = await startFailoverStack();
});

test.after.always(async () => {
  await stack?.stop();
});

/** The gateway's reply stream: the one `{card-reply:...}` key on the cluster's nodes. */
async function replyStreamKey(): Promise<string> {
  const found = new Set<string>();
  for (const node of stack.cluster!.nodes) {
    const redis = new Redis({ port: node.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    try {
      await redis.connect();
      for (const key of await redis.keys('{card-reply:*')) found.add(key);
    } finally {
      redis.disconnect();
    }
  }
  if (found.size !== 1) throw new Error(`expected one reply stream, found ${[...found].join(', ') || 'none'}`);
  return [...found][0]!;
}

test("a reply stream's master killed under load: every request gets its card or a clean 503", async (t) => {
  t.timeout(FAILOVER_TEST_BOUND_MS + 5 * 60_000);
  const cluster = stack.cluster!;
  const queueMaster = await cluster.masterOf(await cluster.keySlot('{card-render}'));
  // A gateway's id (and so its stream's slot) is drawn at start: restarted until the stream is on another master than the queue.
  let key = await replyStreamKey();
  for (let restarts = 0; (await cluster.masterOf(await cluster.keySlot(key))).port === queueMaster.port; restarts += 1) {
    if (restarts === 10) throw new Error('the reply stream stayed on the queue master through 10 gateway restarts');
    await stack.gateway.stop('SIGTERM');
    await (await stack.restart(stack.gateway)).ready;
    key = await replyStreamKey();
  }
  await failoverUnderLoad(t, stack, await cluster.keySlot(key), "the gateway's reply stream");
});
