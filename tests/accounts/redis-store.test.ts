import test from 'ava';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import { startRedisServer } from '../../scripts/local-stack/redis-server.ts';
import type { AccountStore } from '../../services/gateway/src/accounts/account-store.ts';
import { redisAccountStore } from '../../services/gateway/src/accounts/redis-account-store.ts';
import { freePort } from '../helpers/processes.ts';
import { ready, registerAccountStoreContract } from './account-store-contract.ts';

/** The AccountStore contract on one redis-server, each store on a connection of its own (as two gateways). */
registerAccountStoreContract(test, 'redis', async () => {
  const redis = await startRedisServer({ port: await freePort() });
  const connections = new Map<AccountStore, RedisClient>();
  return {
    async open() {
      const client = await ready(createRedisConnection({ kind: 'single', url: redis.url }, 'producer', 'account-store-test'));
      const store = redisAccountStore(client, redis.url);
      connections.set(store, client);
      return store;
    },
    async close(store) {
      await store.close();
      connections.get(store)?.disconnect();
      connections.delete(store);
    },
    stop: () => redis.stop(),
  };
});
