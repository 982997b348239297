import { envBoolean, envInteger, LOG_LEVELS } from '@utility-api/infra';
import { z } from 'zod';

/** `REDIS_URL`: required by renderers, optional for the gateway (unset means embedded mode). */
export const redisUrlField = z.string().regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' });

/** Variables both services read the same way, so their names, defaults and limits cannot drift. */
export const serviceEnvironmentShape = {
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SHUTDOWN_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 25_000 }),
  /** BullMQ silently loses jobs under an evicting `maxmemory-policy`; boot refuses one unless this is true. */
  ALLOW_REDIS_EVICTION: envBoolean(false),
};
