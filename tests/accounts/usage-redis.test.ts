import { startRedisServer } from '../../scripts/local-stack/redis-server.ts';
import { freePort } from '../helpers/processes.ts';
import { registerDistributedUsageTests } from './usage-distributed.ts';

/** Usage and quotas of gateway processes sharing one redis-server. */
registerDistributedUsageTests(async () => {
  const redis = await startRedisServer({ port: await freePort() });
  return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
});
