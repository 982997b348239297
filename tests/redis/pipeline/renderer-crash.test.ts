import test from 'ava';
import { registerRendererCrashScenario } from '../../support/pipeline/renderer-crash-scenario.ts';

// One redis-server; tests/cluster runs the same scenario on a Redis Cluster.
registerRendererCrashScenario(test, 'single', 'distributed');
