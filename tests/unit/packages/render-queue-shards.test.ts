import test from 'ava';
import { clusterSlotOf, RENDER_QUEUE_PREFIX, renderJobId, renderQueueShards } from '@utility-api/render-jobs';

test("the slot function is Redis Cluster's (CRC16 mod 16384)", (t) => {
  // CLUSTER KEYSLOT foo is 12182 in Redis's own documentation; {card-render} is the queue's slot the cluster tests log.
  t.is(clusterSlotOf('foo'), 12182);
  t.is(clusterSlotOf('card-render'), 15340);
});

test("one shard keeps the single queue's prefix; K shards each take their K-th of the slots", (t) => {
  t.deepEqual(renderQueueShards(1).shards.map((shard) => shard.prefix), [RENDER_QUEUE_PREFIX]);
  for (const count of [2, 3, 8]) {
    const { shards } = renderQueueShards(count);
    shards.forEach((shard, index) => {
      const slot = clusterSlotOf(shard.prefix.slice(1, -1));
      t.true(slot >= Math.floor((index * 16_384) / count) && slot < Math.floor(((index + 1) * 16_384) / count), `${shard.prefix} in its range`);
    });
  }
  t.throws(() => renderQueueShards(0));
  t.throws(() => renderQueueShards(65));
});

test("a job's shard comes from its id: identical requests meet, distinct cards spread over every shard", (t) => {
  const shards = renderQueueShards(3);
  const payload = (tag: string) => ({ kind: 'profile' as const, userId: '302050872383242240', options: { customTag: tag } });
  const id = renderJobId(payload('same'), 'key_a');
  t.is(shards.shardOf(id), shards.shardOf(renderJobId(payload('same') as never, 'key_a')));
  t.true(shards.waiters(id).startsWith(shards.shardOf(id).prefix));
  const counts = [0, 0, 0];
  for (let index = 0; index < 300; index += 1) counts[shards.shardOf(renderJobId(payload(`card ${index}`), 'key_a')).index]! += 1;
  // 300 cards over 3 shards: each far from empty (a binomial's spread is about ±8 here).
  t.true(counts.every((count) => count > 60), JSON.stringify(counts));
});
