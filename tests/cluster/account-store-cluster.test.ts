import test from 'ava';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import type { AccountStore } from '../../services/gateway/src/accounts/account-store.ts';
import { redisAccountStore } from '../../services/gateway/src/accounts/redis-account-store.ts';
import { ready, registerAccountStoreContract } from '../accounts/account-store-contract.ts';
import { startRedisCluster } from './redis-cluster.ts';

/**
 * The AccountStore contract on a Redis Cluster (3 masters, 3 replicas), each store on a cluster
 * connection of its own: every transaction and script must keep its keys in one slot (a CROSSSLOT
 * error fails the test), and nothing may rely on WATCH reaching the node its EXEC does.
 */
registerAccountStoreContract(test, 'cluster', async () => {
  const cluster = await startRedisCluster();
  const connections = new Map<AccountStore, RedisClient>();
  return {
    async open() {
      const client = await ready(createRedisConnection({ kind: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.nodes[0]!.port }] }, 'producer', 'account-store-test'));
      const store = redisAccountStore(client, cluster.nodesEnv);
      connections.set(store, client);
      return store;
    },
    async close(store) {
      await store.close();
      connections.get(store)?.disconnect();
      connections.delete(store);
    },
    stop: () => cluster.stop(),
  };
});
