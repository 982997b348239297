import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { envBoolean, envCommaList, envInteger, envUrl } from './env-fields.ts';
import { LOG_LEVELS } from './logging.ts';

/**
 * Environment variables both services read, the gateway for embedded mode: their names, defaults
 * and limits live once here, each service spreading them into its own one-place config. Defaults
 * are documented in the README.
 */

/** The image fetcher's defaults, for these variables and for safe-fetch used without them. */
export const FETCH_DEFAULTS = { maxBytes: 8 * 1024 * 1024, deadlineMs: 5000 } as const;

export const serviceEnvironmentShape = {
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SHUTDOWN_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 25_000 }),
  /** BullMQ silently loses jobs under an evicting `maxmemory-policy`; boot refuses one unless this is true. */
  ALLOW_REDIS_EVICTION: envBoolean(false),
  RENDER_WORKERS: envInteger({ min: 1, max: 64, default: Math.max(1, availableParallelism()) }),
  /**
   * Resident memory of one render worker process above which it is killed (its card fails). An
   * idle warm worker holds about 135 MB (Node, canvas, fonts) and a 16-megapixel background adds
   * 64 MB decoded; below 256 a worker could die of the ceiling before its first card.
   */
  RENDER_WORKER_MEMORY_MB: envInteger({ min: 256, max: 65_536, default: 512 }),
  /** How long one card may draw before its worker is killed (its card fails). */
  RENDER_TIME_BUDGET_MS: envInteger({ min: 100, max: 120_000, default: 5000 }),
  /**
   * The same for an animated card (`animated: true`): one GIF card takes about 5 s on a free core
   * and three times that under load, so it gets its own budget, within the gateway's 20 s default
   * render deadline.
   */
  RENDER_ANIMATED_TIME_BUDGET_MS: envInteger({ min: 100, max: 120_000, default: 18_000 }),
  DISCORD_BOT_TOKEN: z.string().min(1).optional(),
  DISCORD_API_BASE_URL: envUrl(['http', 'https']).default('https://discord.com/api/v10'),
  DISCORD_CDN_BASE_URL: envUrl(['http', 'https']).default('https://cdn.discordapp.com'),
  PROFILE_CACHE_TTL_SECONDS: envInteger({ min: 0, max: 86_400, default: 300 }),
  FETCH_ALLOW_PRIVATE_HOSTS: envCommaList(),
  FETCH_MAX_BYTES: envInteger({ min: 1024, max: 64 * 1024 * 1024, default: FETCH_DEFAULTS.maxBytes }),
  FETCH_TIMEOUT_MS: envInteger({ min: 100, max: 60_000, default: FETCH_DEFAULTS.deadlineMs }),
  /** All of one card's request images together (customBackground + customBadges), in bytes read. */
  FETCH_CARD_BUDGET_BYTES: envInteger({ min: 1024, max: 1024 * 1024 * 1024, default: 24 * 1024 * 1024 }),
  MEDIA_TTL_DAYS: envInteger({ min: 1, max: 3650, default: 30 }),
  MEDIA_DIR: z.string().min(1).default('.data/media'),
  S3_ENDPOINT: envUrl(['http', 'https']).optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be a valid S3 bucket name' })
    .default('cards'),
  S3_REGION: z.string().default('us-east-1'),
};

type ServiceEnvironment = z.output<z.ZodObject<typeof serviceEnvironmentShape>>;

/** S3 settings come as a set: naming some but not all is a configuration mistake worth stopping for. */
export function refineServiceEnvironment(env: ServiceEnvironment, context: z.RefinementCtx): void {
  const s3 = [env.S3_ENDPOINT, env.S3_ACCESS_KEY, env.S3_SECRET_KEY];
  if (s3.some((value) => value !== undefined) && s3.some((value) => value === undefined)) {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required when any S3_* variable is set' });
    }
  }
}

/** What the render path needs from the environment, in the units its parts take. */
export function toRenderingSettings(env: ServiceEnvironment) {
  return {
    renderPool: { workers: env.RENDER_WORKERS, memoryLimitBytes: env.RENDER_WORKER_MEMORY_MB * 1024 * 1024, timeBudgetMs: env.RENDER_TIME_BUDGET_MS, animatedTimeBudgetMs: env.RENDER_ANIMATED_TIME_BUDGET_MS },
    discord:
      env.DISCORD_BOT_TOKEN === undefined
        ? undefined
        : { token: env.DISCORD_BOT_TOKEN, apiBaseUrl: env.DISCORD_API_BASE_URL.replace(/\/+$/, ''), cdnBaseUrl: env.DISCORD_CDN_BASE_URL.replace(/\/+$/, '') },
    profileCacheTtlMs: env.PROFILE_CACHE_TTL_SECONDS * 1000,
    fetch: { allowPrivateHosts: env.FETCH_ALLOW_PRIVATE_HOSTS, maxBytes: env.FETCH_MAX_BYTES, cardBudgetBytes: env.FETCH_CARD_BUDGET_BYTES, deadlineMs: env.FETCH_TIMEOUT_MS },
    media: {
      ttlDays: env.MEDIA_TTL_DAYS,
      directory: env.MEDIA_DIR,
      s3:
        env.S3_ENDPOINT && env.S3_ACCESS_KEY && env.S3_SECRET_KEY
          ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY, bucket: env.S3_BUCKET, region: env.S3_REGION }
          : undefined,
    },
  };
}

export type RenderingSettings = ReturnType<typeof toRenderingSettings>;
