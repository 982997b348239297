import test from 'ava';
import { registerRendererCrashScenario } from './renderer-crash-scenario.ts';

// One redis-server; tests/cluster runs the same scenario on a Redis Cluster.
registerRendererCrashScenario(test, 'single', 'distributed');
