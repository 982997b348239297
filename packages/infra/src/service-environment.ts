import { z } from 'zod';
import { envBoolean, envInteger } from './env-fields.ts';
import { LOG_LEVELS } from './logging.ts';

/**
 * The variables of a service process's own machinery (logging, shutdown, its Redis' eviction
 * policy), read by both services. A feature's variables live with the package that reads them,
 * each in its `config` module; the services spread those fragments and this one into one schema.
 * Defaults are documented in docs/configuration.md.
 */
export const serviceEnvironmentShape = {
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SHUTDOWN_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 25_000 }),
  /** BullMQ silently loses jobs under an evicting `maxmemory-policy`; boot refuses one unless this is true. */
  ALLOW_REDIS_EVICTION: envBoolean(false),
};
