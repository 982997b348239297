import test from 'ava';
import { ConfigurationError, describeRedisTarget } from '@utility-api/infra';
import { createRedisConnection } from '@utility-api/infra/redis';
import { Cluster, Redis } from 'ioredis';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { loadRendererConfig } from '../../../services/renderer/src/config.ts';
import { runKeysCli } from '../../support/keys/key-processes.ts';

/** Which Redis the services use comes from REDIS_URL or REDIS_CLUSTER_NODES, never both. */

/** Each variable's problems, one per line. */
const problemsOf = (load: () => unknown) => {
  const problems: Record<string, string> = {};
  for (const { variable, message } of configurationError(load).problems) problems[variable] = problems[variable] === undefined ? message : `${problems[variable]}\n${message}`;
  return problems;
};

function configurationError(load: () => unknown): ConfigurationError {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('no ConfigurationError');
}

test('REDIS_CLUSTER_NODES names a cluster: its nodes (IPv6 in brackets) and the cluster credentials', (t) => {
  const config = loadGatewayConfig({
    REDIS_CLUSTER_NODES: 'redis-a:7000, 10.0.0.2:7001,[::1]:7002',
    REDIS_USERNAME: 'cards',
    REDIS_PASSWORD: 's3cret-password',
  });
  t.deepEqual(config.redis, {
    kind: 'cluster',
    nodes: [
      { host: 'redis-a', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ],
    username: 'cards',
    password: 's3cret-password',
  });
  const description = describeRedisTarget(config.redis!);
  t.is(description, 'redis cluster redis-a:7000,10.0.0.2:7001,[::1]:7002');
  t.false(description.includes('s3cret'));
});

test('REDIS_URL alone is one server, its password masked in messages; neither is embedded mode', (t) => {
  const config = loadGatewayConfig({ REDIS_URL: 'redis://:hunter2@cache:6379' });
  t.deepEqual(config.redis, { kind: 'single', url: 'redis://:hunter2@cache:6379' });
  t.is(describeRedisTarget(config.redis!), 'redis://:***@cache:6379');
  t.is(loadGatewayConfig({}).redis, undefined);
});

test('both REDIS_URL and REDIS_CLUSTER_NODES is a configuration error, reported with the others', (t) => {
  const problems = problemsOf(() => loadGatewayConfig({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'a:7000', PORT: 'eighty' }));
  t.regex(problems.REDIS_CLUSTER_NODES ?? '', /either REDIS_URL .* or REDIS_CLUSTER_NODES .*not both/);
  t.truthy(problems.PORT);
});

test('a malformed node address is named; cluster credentials without a cluster are refused', (t) => {
  const problems = problemsOf(() => loadGatewayConfig({ REDIS_CLUSTER_NODES: 'a:7000,nohost,b:99999' }));
  t.regex(problems.REDIS_CLUSTER_NODES ?? '', /"nohost" is not a host:port/);
  t.regex(problems.REDIS_CLUSTER_NODES ?? '', /"b:99999" is not a host:port/);
  t.notRegex(problems.REDIS_CLUSTER_NODES ?? '', /"a:7000"/);
  const lonely = problemsOf(() => loadGatewayConfig({ REDIS_URL: 'redis://cache:6379', REDIS_PASSWORD: 'x' }));
  t.regex(lonely.REDIS_PASSWORD ?? '', /only read with REDIS_CLUSTER_NODES/);
});

test('a renderer needs one of REDIS_URL and REDIS_CLUSTER_NODES, and takes either', (t) => {
  t.regex(problemsOf(() => loadRendererConfig({})).REDIS_URL ?? '', /REDIS_CLUSTER_NODES/);
  t.is(loadRendererConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' }).redis.kind, 'cluster');
  t.is(loadRendererConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis.kind, 'single');
});

test('the one connection function opens a Cluster for a cluster and a Redis for one server', (t) => {
  const cluster = createRedisConnection({ kind: 'cluster', nodes: [{ host: '127.0.0.1', port: 1 }] }, 'producer', 'config-test');
  const single = createRedisConnection({ kind: 'single', url: 'redis://127.0.0.1:1' }, 'blocking', 'config-test');
  for (const client of [cluster, single]) client.on('error', () => {});
  try {
    t.true(cluster instanceof Cluster);
    t.true(single instanceof Redis);
    // BullMQ's blocking readers need maxRetriesPerRequest null; producers fail fast.
    t.is((cluster as Cluster).options.redisOptions?.maxRetriesPerRequest, 1);
    t.is((cluster as Cluster).options.enableOfflineQueue, false);
    t.is((single as Redis).options.maxRetriesPerRequest, null);
  } finally {
    cluster.disconnect();
    single.disconnect();
  }
});

test('./run keys against an unreachable cluster exits 69 instead of retrying, naming the nodes', async (t) => {
  const run = await runKeysCli(['list'], { REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.1:2' });
  t.is(run.code, 69);
  t.regex(run.stderr, /cannot reach Redis at redis cluster 127\.0\.0\.1:1,127\.0\.0\.1:2/);
  const both = await runKeysCli(['list'], { REDIS_CLUSTER_NODES: '127.0.0.1:1', REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(both.code, 78);
  t.regex(both.stderr, /not both/);
});
