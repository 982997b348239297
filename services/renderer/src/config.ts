import { discordEnvironmentShape, toDiscordSettings } from '@utility-api/discord-users/config';
import { envInteger, parseEnvironment, redisEnvironmentShape, refineRedisEnvironment, serviceEnvironmentShape, toRedisTarget } from '@utility-api/infra';
import { mediaEnvironmentShape, refineMediaEnvironment, toMediaSettings } from '@utility-api/media-store/config';
import { refineRenderPoolEnvironment, renderPoolEnvironmentShape, toRenderPoolSettings } from '@utility-api/render-engine/config';
import { RENDER_QUEUE_SHARDS } from '@utility-api/render-jobs';
import { fetchEnvironmentShape, toImageFetchSettings } from '@utility-api/safe-fetch/config';
import { z } from 'zod';

const environmentSchema = z
  .object({
    /** REDIS_URL or REDIS_CLUSTER_NODES, one of them required: a renderer only works from the queue. */
    ...redisEnvironmentShape,
    /** Jobs at once per render queue shard (a renderer reads every shard: up to RENDER_QUEUE_SHARDS × this). */
    RENDER_CONCURRENCY: envInteger({ min: 1, max: 256, default: 4 }),
    /** Render queues, each under its own hash tag; the same on every gateway and renderer (docs/redis-cluster.md). */
    RENDER_QUEUE_SHARDS: envInteger({ min: 1, max: RENDER_QUEUE_SHARDS.max, default: RENDER_QUEUE_SHARDS.default }),
    HEALTH_PORT: envInteger({ min: 0, max: 65535, default: 3001 }),
    HEALTH_HOST: z.string().default('127.0.0.1'),
    /**
     * Locks are short so a renderer that dies mid-job (SIGKILL, OOM) hands its job to another within
     * about `LOCK_DURATION_MS + STALLED_INTERVAL_MS`, well inside the gateway's deadline. Short locks
     * are safe because drawing happens in worker processes: the event loop renewing them never stalls.
     */
    LOCK_DURATION_MS: envInteger({ min: 1000, max: 600_000, default: 8000 }),
    STALLED_INTERVAL_MS: envInteger({ min: 500, max: 600_000, default: 4000 }),
    ...serviceEnvironmentShape,
    ...renderPoolEnvironmentShape,
    ...discordEnvironmentShape,
    ...fetchEnvironmentShape,
    ...mediaEnvironmentShape,
  })
  // No pool budget unless RENDER_POOL_MEMORY_MB sets one: a renderer's machine is its own to size.
  .superRefine((env, context) => refineRenderPoolEnvironment(env, context))
  .superRefine(refineMediaEnvironment)
  .superRefine((env, context) => refineRedisEnvironment(env, context, { required: true }))
  .transform((env) => ({
    // Present: refineRedisEnvironment refused a configuration without either variable.
    redis: toRedisTarget(env)!,
    /** Jobs in progress at once: more than the render workers, so fetching and uploading overlap drawing. */
    concurrency: env.RENDER_CONCURRENCY,
    queueShards: env.RENDER_QUEUE_SHARDS,
    health: { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
    logLevel: env.LOG_LEVEL,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    locks: { lockDurationMs: env.LOCK_DURATION_MS, stalledIntervalMs: env.STALLED_INTERVAL_MS },
    allowRedisEviction: env.ALLOW_REDIS_EVICTION,
    rendering: {
      renderPool: toRenderPoolSettings(env),
      fetch: toImageFetchSettings(env),
      ...toDiscordSettings(env),
      media: toMediaSettings(env),
    },
  }));

export type RendererConfig = Readonly<z.output<typeof environmentSchema>>;

/** Every variable the renderer reads, from the schema itself: docs/configuration.md is checked against it. */
export const RENDERER_ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(environmentSchema.in.shape);

/** Reads the environment once at boot; every bad variable is reported in one ConfigurationError. */
export function loadRendererConfig(environment: Record<string, string | undefined>): RendererConfig {
  return parseEnvironment(environmentSchema, environment);
}
