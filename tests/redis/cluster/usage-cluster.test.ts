import { registerDistributedUsageTests } from '../../support/accounts/usage-distributed.ts';
import { startRedisCluster } from '../../support/cluster/redis-cluster.ts';

/** Usage and quotas of gateway processes sharing a Redis Cluster (3 masters, 3 replicas). */
registerDistributedUsageTests(async () => {
  const cluster = await startRedisCluster();
  return { env: { REDIS_CLUSTER_NODES: cluster.nodesEnv }, stop: () => cluster.stop() };
});
