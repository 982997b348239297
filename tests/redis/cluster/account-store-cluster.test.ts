import test from 'ava';
import { redisBackend, registerAccountStoreContract } from '../../support/accounts/account-store-contract.ts';
import { startRedisCluster } from '../../support/cluster/redis-cluster.ts';

/**
 * The AccountStore contract on a Redis Cluster (3 masters, 3 replicas), each store on a cluster
 * connection of its own: every transaction and script must keep its keys in one slot (a CROSSSLOT
 * error, or ioredis refusing a pipeline across nodes, fails the test), and nothing may rely on
 * WATCH reaching the node its EXEC does.
 */
registerAccountStoreContract(test, 'cluster', async () => {
  const cluster = await startRedisCluster();
  return redisBackend({ kind: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.nodes[0]!.port }] }, () => cluster.stop());
});
