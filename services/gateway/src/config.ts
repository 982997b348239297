import { discordEnvironmentShape, toDiscordSettings } from '@utility-api/discord-users/config';
import { envBoolean, envCommaList, envInteger, envUrl, parseEnvironment, redisEnvironmentShape, refineRedisEnvironment, serviceEnvironmentShape, toRedisTarget } from '@utility-api/infra';
import { mediaEnvironmentShape, refineMediaEnvironment, toMediaSettings } from '@utility-api/media-store/config';
import { refineRenderPoolEnvironment, renderPoolEnvironmentShape, toRenderPoolSettings } from '@utility-api/render-engine/config';
import { fetchEnvironmentShape, toImageFetchSettings } from '@utility-api/safe-fetch/config';
import { z } from 'zod';
import { accountAreaEnvironmentShape, refineAccountAreaEnvironment, toAccountAreaSettings } from './account-area/account-area-settings.ts';
import { plansEnvironmentShape, toPlans } from './accounts/plans.ts';
import { DEFAULT_USAGE_FLUSH_MS } from './accounts/usage-meter.ts';
import { databasePathField, keysFileField } from './accounts/open-account-store.ts';
import { envRateSpec } from './auth/rate-spec.ts';
import { RENDER_QUEUE_SHARDS } from '@utility-api/render-jobs';

/**
 * The embedded gateway promises that it and its render workers together stay under 1 GiB. The
 * gateway's own share (about 225 MiB at its peak in the memory tests: Node, the app, fetched images,
 * answered cards) is set aside; its render workers share the rest as one pool budget: each worker
 * may use what the others leave of it, up to its own ceiling, and is killed above that (the pool
 * also never draws more animated cards at once than the budget holds). So the tree stays within
 * the promise whatever the cards. A renderer service has no such promise: its ceiling is per
 * worker (RENDER_WORKER_MEMORY_MB) and the pool unbounded.
 */
const EMBEDDED_TREE_MEMORY_MB = 1024;
const EMBEDDED_GATEWAY_SHARE_MB = 256;
/**
 * How the gateway holds its share: V8's old space capped at 128 MiB and each semi-space at 4 MiB,
 * set where the process starts (`pnpm start`, the image's CMD; a test checks both). Without them V8
 * sizes its heap from the machine's memory and collects late: the gateway peaked at 315 MiB under
 * 8 parallel 8-card batches plus 1-16 MB bodies at full speed, and at 237 MiB with them (VmHWM, see
 * docs/performance.md). The rest of the share is Node, canvas's and sharp's native code, and
 * buffers outside the heap (bodies are read up to 1 MB, refused ones drained without keeping them).
 */
export const GATEWAY_HEAP_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=4'] as const;
const EMBEDDED_RENDER_POOL_MEMORY_MB = EMBEDDED_TREE_MEMORY_MB - EMBEDDED_GATEWAY_SHARE_MB;

/** Keys are secrets: long enough not to be guessed, and free of the separators the list uses. */
const apiKey = z
  .string()
  .min(16, { error: 'each key must be at least 16 characters' })
  .max(256, { error: 'each key must be at most 256 characters' })
  .regex(/^[\x21-\x7e]+$/, { error: 'keys must be printable ASCII without spaces' });

const environmentSchema = z
  .object({
    PORT: envInteger({ min: 0, max: 65535, default: 3000 }),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_BASE_URL: envUrl(['http', 'https']).optional(),
    API_KEYS: envCommaList().pipe(z.array(apiKey)),
    DEPLOYMENT_ENVIRONMENT: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { error: 'must be 1-32 lowercase letters, digits or dashes' })
      .default('prod'),
    TRUST_PROXY: envBoolean(false),
    /** REDIS_URL or REDIS_CLUSTER_NODES: BullMQ and renderers. Neither: embedded mode (renders in this process, media on disk). */
    ...redisEnvironmentShape,
    RENDER_TIMEOUT_MS: envInteger({ min: 1000, max: 120_000, default: 20_000 }),
    /** Embedded mode: distinct cards waiting or drawing at once; more are refused with 503 overloaded. */
    RENDER_QUEUE_LIMIT: envInteger({ min: 1, max: 100_000, default: 64 }),
    /** Distributed mode: render queues, each under its own hash tag; the same on every gateway and renderer (docs/redis-cluster.md). */
    RENDER_QUEUE_SHARDS: envInteger({ min: 1, max: RENDER_QUEUE_SHARDS.max, default: RENDER_QUEUE_SHARDS.default }),
    METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    /** A client must finish sending headers within this (slowloris); at most REQUEST_TIMEOUT_MS. */
    HEADERS_TIMEOUT_MS: envInteger({ min: 500, max: 600_000, default: 10_000 }),
    /** A client must finish sending the whole request (headers and body) within this; the answer may take longer. */
    REQUEST_TIMEOUT_MS: envInteger({ min: 1000, max: 600_000, default: 30_000 }),
    /** A keys file of earlier versions, imported into the DATABASE_PATH database once (embedded mode). */
    KEYS_FILE: keysFileField,
    DATABASE_PATH: databasePathField,
    RATE_LIMITS: envBoolean(true),
    RATE_LIMIT_DEFAULT: envRateSpec('600/60s'),
    RATE_LIMIT_PROFILE_IMAGE: envRateSpec('60/60s'),
    /** Playground previews of a signed-in account (their own budget, not any key's). */
    RATE_LIMIT_PREVIEW: envRateSpec('30/60s'),
    RATE_LIMIT_AUTH_FAILURES: envRateSpec('20/60s'),
    /** Profile-image requests one key may have in progress at once, across every gateway sharing Redis. */
    CARDS_IN_FLIGHT_PER_KEY: envInteger({ min: 1, max: 10_000, default: 8 }),
    /** The plans accounts can be on, each with a monthly quota of cards and requests; the first is the default unless DEFAULT_PLAN says. */
    ...plansEnvironmentShape,
    /** Sign in with Discord (OAuth2) and the key roll grace period of the account area. */
    ...accountAreaEnvironmentShape,
    /** How often each gateway writes the usage it counted in memory to the store (and re-reads the quotas' totals). */
    USAGE_FLUSH_MS: envInteger({ min: 100, max: 60_000, default: DEFAULT_USAGE_FLUSH_MS }),
    ...serviceEnvironmentShape,
    // The render path's variables, for embedded mode and for the limits /docs states.
    ...renderPoolEnvironmentShape,
    ...discordEnvironmentShape,
    ...fetchEnvironmentShape,
    ...mediaEnvironmentShape,
  })
  // Embedded mode's render workers share what the 1 GiB promise leaves beside the gateway.
  .superRefine((env, context) => refineRenderPoolEnvironment(env, context, EMBEDDED_RENDER_POOL_MEMORY_MB))
  .superRefine(refineMediaEnvironment)
  .superRefine((env, context) => refineRedisEnvironment(env, context, { required: false }))
  .superRefine((env, context) => void toPlans(env.PLANS, env.DEFAULT_PLAN, context))
  .superRefine(refineAccountAreaEnvironment)
  .superRefine((env, context) => {
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      context.addIssue({ code: 'custom', path: ['HEADERS_TIMEOUT_MS'], message: `must be at most REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})` });
    }
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST,
    /** When unset, derived from HOST and PORT once the port is known (PORT=0 picks a free one). */
    publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    apiKeys: env.API_KEYS,
    logLevel: env.LOG_LEVEL,
    deploymentEnvironment: env.DEPLOYMENT_ENVIRONMENT,
    trustProxy: env.TRUST_PROXY,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** Undefined: embedded mode. */
    redis: toRedisTarget(env),
    renderTimeoutMs: env.RENDER_TIMEOUT_MS,
    renderQueueLimit: env.RENDER_QUEUE_LIMIT,
    renderQueueShards: env.RENDER_QUEUE_SHARDS,
    metricsToken: env.METRICS_TOKEN,
    headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    allowRedisEviction: env.ALLOW_REDIS_EVICTION,
    keysFile: env.KEYS_FILE,
    databasePath: env.DATABASE_PATH,
    plans: toPlans(env.PLANS, env.DEFAULT_PLAN),
    accountArea: toAccountAreaSettings(env),
    usageFlushMs: env.USAGE_FLUSH_MS,
    rateLimits: {
      enabled: env.RATE_LIMITS,
      budgets: { default: env.RATE_LIMIT_DEFAULT, profileImage: env.RATE_LIMIT_PROFILE_IMAGE, preview: env.RATE_LIMIT_PREVIEW },
      authFailures: env.RATE_LIMIT_AUTH_FAILURES,
      cardsInFlightPerKey: env.CARDS_IN_FLIGHT_PER_KEY,
    },
    rendering: {
      renderPool: toRenderPoolSettings(env, EMBEDDED_RENDER_POOL_MEMORY_MB),
      fetch: toImageFetchSettings(env),
      ...toDiscordSettings(env),
      media: toMediaSettings(env),
    },
  }));

export type GatewayConfig = Readonly<z.output<typeof environmentSchema>>;

/** Every variable the gateway reads, from the schema itself: docs/configuration.md is checked against it. */
export const GATEWAY_ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(environmentSchema.in.shape);

/** Reads the environment once at boot; every bad variable is reported in one ConfigurationError. */
export function loadGatewayConfig(environment: Record<string, string | undefined>): GatewayConfig {
  return parseEnvironment(environmentSchema, environment);
}

export function defaultPublicBaseUrl(host: string, port: number): string {
  const reachableHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachableHost}:${port}`;
}
