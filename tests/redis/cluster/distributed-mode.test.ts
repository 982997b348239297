import test from 'ava';
import { registerDistributedScenarios } from '../../support/pipeline/distributed-scenarios.ts';

// The distributed pipeline's scenarios on a Redis Cluster of three masters and three replicas.
registerDistributedScenarios(test, 'cluster', 'cluster');
