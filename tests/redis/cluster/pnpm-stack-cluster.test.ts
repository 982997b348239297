import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freeLoopbackPort } from '../../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';
import { startRedisCluster, type RunningCluster } from '../../support/cluster/redis-cluster.ts';

/** `./run stack` (`node scripts/stack.ts`) with REDIS_CLUSTER_NODES: it uses that cluster and starts no redis-server. */
const API_KEY = 'stack-cluster-key-0123456789abcdef';
let cluster: RunningCluster;
let stack: ServiceProcess | undefined;
let dataDirectory: string;

test.before(async () => {
  cluster = await startRedisCluster();
  dataDirectory = mkdtempSync(join(tmpdir(), 'stack-cluster-data-'));
});

test.after.always(async () => {
  await stack?.stop('SIGINT');
  await cluster?.stop();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

test('./run stack on a given Redis Cluster renders cards and starts no redis-server of its own', async (t) => {
  t.timeout(180_000);
  const port = await freeLoopbackPort();
  stack = startServiceProcess({
    name: 'pnpm-stack',
    entry: 'scripts/stack.ts',
    env: {
      PORT: String(port),
      RENDERERS: '1',
      API_KEYS: API_KEY,
      STACK_DATA_DIR: dataDirectory,
      REDIS_CLUSTER_NODES: cluster.nodesEnv,
      RENDER_WORKERS: '1',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: '5000',
    },
  });
  const pids = await stack.waitFor(/^pids: /, 120_000);
  t.notRegex(pids, /redis-server/);
  t.regex(stack.output(), new RegExp(`redis cluster ${cluster.nodesEnv}`));
  t.false(existsSync(join(dataDirectory, 'redis')), 'no Redis data directory: the cluster keeps the data');

  const response = await fetch(`http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: 'stack on a cluster' }),
  });
  const body = (await response.json()) as { url?: string };
  t.is(response.status, 200, JSON.stringify(body));
  t.is((await fetch(body.url!)).status, 200);
  t.regex(stack.output(), /"redis":"cluster"/);

  await stack.stop('SIGINT');
  t.regex(stack.output(), /stopped; data kept/);
  stack = undefined;
});
