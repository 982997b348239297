import { startRedisServer } from '../../../scripts/local-stack/redis-server.ts';
import { registerDistributedUsageTests } from '../../support/accounts/usage-distributed.ts';

/** Usage and quotas of gateway processes sharing one redis-server. */
registerDistributedUsageTests(async () => {
  const redis = await startRedisServer({});
  return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
});
