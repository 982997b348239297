import test from 'ava';
import { registerDistributedFairness } from '../../support/pipeline/distributed-fairness-scenario.ts';

// One render queue (RENDER_QUEUE_SHARDS' default).
registerDistributedFairness(test, {}, 'distributed');
