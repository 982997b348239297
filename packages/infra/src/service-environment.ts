import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { envBoolean, envCommaList, envInteger, envOptionalInteger, envUrl } from './env-fields.ts';
import { LOG_LEVELS } from './logging.ts';

/**
 * Environment variables both services read, the gateway for embedded mode: their names, defaults
 * and limits live once here, each service spreading them into its own one-place config. Defaults
 * are documented in docs/configuration.md.
 */

/** The image fetcher's defaults, for these variables and for safe-fetch used without them. */
export const FETCH_DEFAULTS = { maxBytes: 8 * 1024 * 1024, deadlineMs: 5000 } as const;

/**
 * The embedded gateway promises that it and its render workers together stay under 1 GiB. The
 * gateway's own share (about 225 MiB at its peak in the memory tests: Node, the app, fetched images,
 * answered cards) is set aside; its render workers share the rest as one pool budget: each worker
 * may use what the others leave of it, up to its own ceiling, and is killed above that (the pool
 * also never draws more animated cards at once than the budget holds: ANIMATED_CARD_PEAK_MB). So
 * the tree stays within the promise whatever the cards. A renderer service has no such promise:
 * its ceiling is per worker (RENDER_WORKER_MEMORY_MB) and the pool unbounded.
 */
const EMBEDDED_TREE_MEMORY_MB = 1024;
const EMBEDDED_GATEWAY_SHARE_MB = 256;
export const EMBEDDED_RENDER_POOL_MEMORY_MB = EMBEDDED_TREE_MEMORY_MB - EMBEDDED_GATEWAY_SHARE_MB;

/** Below this a worker could die of its ceiling before its first card (idle warm: about 135 MiB). */
const MIN_WORKER_MEMORY_MB = 256;
/** A worker's ceiling when nothing sets it and the pool leaves room: a 16-megapixel background adds 64 MiB decoded. */
const DEFAULT_WORKER_MEMORY_MB = 512;
/**
 * Under a pool budget, the default worker count stops where a worker's share would fall below
 * this: room for the heaviest card the tests draw (three 16-megapixel APNG frames, about 300 MiB
 * at its peak) rather than a third worker that could not draw it.
 */
const DEFAULT_WORKER_SHARE_MB = 384;
/**
 * A worker's resident peak while it draws the heaviest animated card (60 frames of 900x300 drawn
 * over a source cut to its frame cap): 397-424 MiB measured. Under a pool budget, at most as many
 * animated cards draw at once as this fits into it (at least one); the others wait their turn.
 */
const ANIMATED_CARD_PEAK_MB = 448;

export const serviceEnvironmentShape = {
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SHUTDOWN_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 25_000 }),
  /** BullMQ silently loses jobs under an evicting `maxmemory-policy`; boot refuses one unless this is true. */
  ALLOW_REDIS_EVICTION: envBoolean(false),
  /** Default: one per core, as many as the pool budget gives DEFAULT_WORKER_SHARE_MB each (at least one). */
  RENDER_WORKERS: envOptionalInteger({ min: 1, max: 64 }),
  /**
   * Resident memory of one render worker process above which it is killed (its card fails).
   * Default: its share of the pool budget, at most 512; else 512.
   */
  RENDER_WORKER_MEMORY_MB: envOptionalInteger({ min: MIN_WORKER_MEMORY_MB, max: 65_536 }),
  /** All render workers of one process together (default: EMBEDDED_RENDER_POOL_MEMORY_MB in the gateway, none in a renderer). */
  RENDER_POOL_MEMORY_MB: envOptionalInteger({ min: MIN_WORKER_MEMORY_MB, max: 1_048_576 }),
  /** CPU time (user + system, all the worker's threads) one card may use before its worker is killed (its card fails). */
  RENDER_TIME_BUDGET_MS: envInteger({ min: 100, max: 120_000, default: 5000 }),
  /**
   * The same for an animated card (`animated: true`): one GIF card takes about 5 s on a free core
   * and three times that under load, so it gets its own budget, within the gateway's 20 s default
   * render deadline.
   */
  RENDER_ANIMATED_TIME_BUDGET_MS: envInteger({ min: 100, max: 120_000, default: 18_000 }),
  /** A card still unanswered after this many times its CPU budget in wall-clock time is killed whatever CPU it used. */
  RENDER_WALL_CLOCK_FACTOR: envInteger({ min: 2, max: 20, default: 4 }),
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

/**
 * Workers and their ceilings: each variable set wins; unset ones are derived from the pool budget
 * (`poolDefaultMb` when RENDER_POOL_MEMORY_MB is unset: the embedded gateway's share of its 1 GiB).
 */
function renderPoolSizes(env: ServiceEnvironment, poolDefaultMb: number | undefined) {
  const poolMb = env.RENDER_POOL_MEMORY_MB ?? poolDefaultMb;
  const cores = Math.max(1, availableParallelism());
  const workers = env.RENDER_WORKERS ?? (poolMb === undefined ? cores : Math.max(1, Math.min(cores, Math.floor(poolMb / DEFAULT_WORKER_SHARE_MB))));
  // Under a pool budget a worker may use what the others leave, so its own ceiling need not be a share.
  const workerMb = env.RENDER_WORKER_MEMORY_MB ?? (poolMb === undefined ? DEFAULT_WORKER_MEMORY_MB : Math.min(DEFAULT_WORKER_MEMORY_MB, poolMb));
  return { poolMb, workers, workerMb };
}

/**
 * The render settings hold together: S3 settings come as a set (naming some but not all is a
 * configuration mistake worth stopping for), and the workers' ceilings fit the pool budget.
 * `poolDefaultMb`: see {@link renderPoolSizes}.
 */
export function refineServiceEnvironment(env: ServiceEnvironment, context: z.RefinementCtx, poolDefaultMb?: number): void {
  const { poolMb, workers, workerMb } = renderPoolSizes(env, poolDefaultMb);
  if (poolMb !== undefined && workers * MIN_WORKER_MEMORY_MB > poolMb) {
    const path = env.RENDER_WORKERS === undefined ? 'RENDER_POOL_MEMORY_MB' : 'RENDER_WORKERS';
    context.addIssue({ code: 'custom', path: [path], message: `${workers} render workers in ${poolMb} MiB leave each ${Math.floor(poolMb / workers)} MiB, under the ${MIN_WORKER_MEMORY_MB} MiB a worker needs` });
  } else if (poolMb !== undefined && workerMb > poolMb) {
    context.addIssue({ code: 'custom', path: ['RENDER_WORKER_MEMORY_MB'], message: `a render worker of ${workerMb} MiB does not fit the pool's ${poolMb} MiB (RENDER_POOL_MEMORY_MB)` });
  }
  const s3 = [env.S3_ENDPOINT, env.S3_ACCESS_KEY, env.S3_SECRET_KEY];
  if (s3.some((value) => value !== undefined) && s3.some((value) => value === undefined)) {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required when any S3_* variable is set' });
    }
  }
}

/** What the render path needs from the environment, in the units its parts take. */
export function toRenderingSettings(env: ServiceEnvironment, poolDefaultMb?: number) {
  const { workers, workerMb, poolMb } = renderPoolSizes(env, poolDefaultMb);
  return {
    renderPool: {
      workers,
      memoryLimitBytes: workerMb * 1024 * 1024,
      ...(poolMb === undefined ? {} : { poolMemoryLimitBytes: poolMb * 1024 * 1024, animatedAtOnce: Math.max(1, Math.floor(poolMb / ANIMATED_CARD_PEAK_MB)) }),
      timeBudgetMs: env.RENDER_TIME_BUDGET_MS,
      animatedTimeBudgetMs: env.RENDER_ANIMATED_TIME_BUDGET_MS,
      wallClockFactor: env.RENDER_WALL_CLOCK_FACTOR,
    },
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
