import test from 'ava';
import { registerDistributedFairness } from '../../support/pipeline/distributed-fairness-scenario.ts';

/**
 * The same scenario over three render queue shards: the noisy key's cards land on all three, the
 * quiet key's on whichever its job ids give, and the renderer reads every shard. The quiet key's
 * cards keep the bounds of one queue, and the noisy key's queued cards whose clients hang up leave every
 * shard undrawn (docs/redis-cluster.md, "Sharded render queues").
 */
registerDistributedFairness(test, { RENDER_QUEUE_SHARDS: '3' }, 'distributed, 3 queue shards');
