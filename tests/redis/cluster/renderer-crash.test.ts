import test from 'ava';
import { registerRendererCrashScenario } from '../../support/pipeline/renderer-crash-scenario.ts';

// The renderer-crash scenario on a Redis Cluster of three masters and three replicas.
registerRendererCrashScenario(test, 'cluster', 'cluster');
