import { envInteger, parseEnvironment } from '@utility-api/config';
import { LOG_LEVELS } from '@utility-api/logging';
import { z } from 'zod';
import { refineRenderingEnvironment, renderingEnvironmentShape, toRenderingSettings } from './rendering-settings.ts';

const environmentSchema = z
  .object({
    REDIS_URL: z.string().regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' }),
    RENDER_CONCURRENCY: envInteger({ min: 1, max: 256, default: 4 }),
    HEALTH_PORT: envInteger({ min: 0, max: 65535, default: 3001 }),
    HEALTH_HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    SHUTDOWN_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 25_000 }),
    ...renderingEnvironmentShape,
  })
  .superRefine(refineRenderingEnvironment)
  .transform((env) => ({
    redisUrl: env.REDIS_URL,
    /** Jobs in progress at once: more than the threads, so fetching and uploading overlap drawing. */
    concurrency: env.RENDER_CONCURRENCY,
    health: { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
    logLevel: env.LOG_LEVEL,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    rendering: toRenderingSettings(env),
  }));

export type RendererConfig = Readonly<z.output<typeof environmentSchema>>;

/** Reads the environment once at boot; every bad variable is reported in one ConfigurationError. */
export function loadRendererConfig(environment: Record<string, string | undefined>): RendererConfig {
  return parseEnvironment(environmentSchema, environment);
}
