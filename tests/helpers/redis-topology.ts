import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../scripts/local-stack/local-stack.ts';
import type { RunningRedis } from '../../scripts/local-stack/redis-server.ts';
import { startRedisCluster, type RunningCluster } from '../support/cluster/redis-cluster.ts';

/**
 * Which Redis a distributed scenario runs on: one redis-server (`REDIS_URL`) or a Redis Cluster of
 * three masters and three replicas (`REDIS_CLUSTER_NODES`). The scenarios are written once and
 * registered per topology (tests/pipeline for one server, tests/cluster for the cluster).
 */
export type RedisTopology = 'single' | 'cluster';

export type TopologyStack = LocalStack<RunningRedis | undefined> & {
  /** The cluster under a 'cluster' stack, for failover tests; stopped with the stack. */
  cluster: RunningCluster | undefined;
};

/** `startLocalStack` on the chosen topology; `stop` takes down the cluster too. */
export async function startStackOn(topology: RedisTopology, options: Omit<LocalStackOptions, 'redisClusterNodes'>): Promise<TopologyStack> {
  if (topology === 'single') return Object.assign(await startLocalStack(options), { cluster: undefined });
  const cluster = await startRedisCluster();
  let stack: LocalStack<RunningRedis | undefined>;
  try {
    stack = await startLocalStack({ ...options, redisClusterNodes: cluster.nodesEnv });
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  // The stack's own stop, captured before it is replaced by one that takes the cluster down too.
  const stopServices = stack.stop.bind(stack);
  return Object.assign(stack, {
    cluster,
    async stop() {
      await stopServices();
      await cluster.stop();
    },
  });
}
