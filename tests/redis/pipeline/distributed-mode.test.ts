import test from 'ava';
import { registerDistributedScenarios } from '../../support/pipeline/distributed-scenarios.ts';

// One redis-server; tests/cluster runs the same scenarios on a Redis Cluster.
registerDistributedScenarios(test, 'single', 'distributed');
