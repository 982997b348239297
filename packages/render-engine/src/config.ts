import { availableParallelism } from 'node:os';
import { envInteger, envOptionalInteger } from '@utility-api/infra';
import type { z } from 'zod';

/**
 * The render pool's environment variables (RENDER_*): their defaults and limits, the check that
 * they hold together and the pool settings they make. A service spreads the shape into its one
 * schema. Free of node-canvas (`@utility-api/render-engine/config`), so a distributed gateway
 * can read the variables it states in /docs without loading the render path.
 */

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

export const renderPoolEnvironmentShape = {
  /** Default: one per core, as many as the pool budget gives DEFAULT_WORKER_SHARE_MB each (at least one). */
  RENDER_WORKERS: envOptionalInteger({ min: 1, max: 64 }),
  /**
   * Resident memory of one render worker process above which it is killed (its card fails).
   * Default: its share of the pool budget, at most 512; else 512.
   */
  RENDER_WORKER_MEMORY_MB: envOptionalInteger({ min: MIN_WORKER_MEMORY_MB, max: 65_536 }),
  /** All render workers of one process together (default: the service's `poolDefaultMb`, the embedded gateway's share of its 1 GiB; none in a renderer). */
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
};

type RenderPoolEnvironment = z.output<z.ZodObject<typeof renderPoolEnvironmentShape>>;

/**
 * Workers and their ceilings: each variable set wins; unset ones are derived from the pool budget
 * (`poolDefaultMb` when RENDER_POOL_MEMORY_MB is unset).
 */
function renderPoolSizes(env: RenderPoolEnvironment, poolDefaultMb: number | undefined) {
  const poolMb = env.RENDER_POOL_MEMORY_MB ?? poolDefaultMb;
  const cores = Math.max(1, availableParallelism());
  const workers = env.RENDER_WORKERS ?? (poolMb === undefined ? cores : Math.max(1, Math.min(cores, Math.floor(poolMb / DEFAULT_WORKER_SHARE_MB))));
  // Under a pool budget a worker may use what the others leave, so its own ceiling need not be a share.
  const workerMb = env.RENDER_WORKER_MEMORY_MB ?? (poolMb === undefined ? DEFAULT_WORKER_MEMORY_MB : Math.min(DEFAULT_WORKER_MEMORY_MB, poolMb));
  return { poolMb, workers, workerMb };
}

/** The workers' ceilings fit the pool budget, reported with every other bad variable. `poolDefaultMb`: see {@link renderPoolSizes}. */
export function refineRenderPoolEnvironment(env: RenderPoolEnvironment, context: z.RefinementCtx, poolDefaultMb?: number): void {
  const { poolMb, workers, workerMb } = renderPoolSizes(env, poolDefaultMb);
  if (poolMb !== undefined && workers * MIN_WORKER_MEMORY_MB > poolMb) {
    const path = env.RENDER_WORKERS === undefined ? 'RENDER_POOL_MEMORY_MB' : 'RENDER_WORKERS';
    context.addIssue({ code: 'custom', path: [path], message: `${workers} render workers in ${poolMb} MiB leave each ${Math.floor(poolMb / workers)} MiB, under the ${MIN_WORKER_MEMORY_MB} MiB a worker needs` });
  } else if (poolMb !== undefined && workerMb > poolMb) {
    context.addIssue({ code: 'custom', path: ['RENDER_WORKER_MEMORY_MB'], message: `a render worker of ${workerMb} MiB does not fit the pool's ${poolMb} MiB (RENDER_POOL_MEMORY_MB)` });
  }
}

/** The card render pool's settings, in the units it takes. `poolDefaultMb`: see {@link renderPoolSizes}. */
export function toRenderPoolSettings(env: RenderPoolEnvironment, poolDefaultMb?: number) {
  const { workers, workerMb, poolMb } = renderPoolSizes(env, poolDefaultMb);
  return {
    workers,
    memoryLimitBytes: workerMb * 1024 * 1024,
    ...(poolMb === undefined ? {} : { poolMemoryLimitBytes: poolMb * 1024 * 1024, animatedAtOnce: Math.max(1, Math.floor(poolMb / ANIMATED_CARD_PEAK_MB)) }),
    timeBudgetMs: env.RENDER_TIME_BUDGET_MS,
    animatedTimeBudgetMs: env.RENDER_ANIMATED_TIME_BUDGET_MS,
    wallClockFactor: env.RENDER_WALL_CLOCK_FACTOR,
  };
}

export type RenderPoolSettings = ReturnType<typeof toRenderPoolSettings>;
