import { CardImageError } from '@utility-api/card';
import type { createDiscordProfiles } from '@utility-api/discord-users';
import { ImageFetchError } from '@utility-api/safe-fetch';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CardRenderPool } from './card-pool/card-render-pool.ts';

type DiscordProfilesStats = ReturnType<ReturnType<typeof createDiscordProfiles>['stats']>;

const SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5, 10, 20];

/** What a render reports as it goes; both run modes register the same metrics. */
export type RenderMetrics = ReturnType<typeof createRenderMetrics>;

export function createRenderMetrics(registry: Registry, pool: CardRenderPool) {
  const phases = new Histogram({
    name: 'card_render_phase_seconds',
    help: 'Time per phase of a card render: profile, background, avatar, badges, avatars (leaderboard) (fetches), render (worker process), draw, encode, store.',
    labelNames: ['phase'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const jobs = new Counter({ name: 'card_render_jobs_total', help: 'Render jobs finished, by outcome.', labelNames: ['outcome'], registers: [registry] });
  const imageFailures = new Counter({ name: 'card_image_failures_total', help: 'Request and profile images refused or unusable, by reason.', labelNames: ['reason'], registers: [registry] });
  const waited = new Histogram({ name: 'card_render_queue_wait_seconds', help: 'Time a job waited in the queue before a renderer started it.', buckets: SECONDS_BUCKETS, registers: [registry] });
  registerCountsCounter(
    registry,
    {
      name: 'card_render_workers_lost_total',
      help:
        'Render worker processes lost, by cause: crashed (signal or exit), memory (over its memory ceiling), cpu (a card over RENDER_TIME_BUDGET_MS of CPU time, or RENDER_ANIMATED_TIME_BUDGET_MS for an animated card), wall-clock (a card past the wall-clock backstop, RENDER_WALL_CLOCK_FACTOR times its CPU budget).',
      labelNames: ['cause'],
    },
    () => Object.entries(pool.workersLost).map(([cause, count]) => [{ cause }, count]),
  );
  registerCountsCounter(
    registry,
    { name: 'card_render_workers_recycled_total', help: 'Render worker processes retired after answering a card that left them holding memory above the recycling threshold.', labelNames: [] },
    () => [[{}, pool.workersRecycled]],
  );
  new Gauge({
    name: 'card_render_pool_load',
    help: 'Cards being drawn or waiting for a render worker in this process.',
    registers: [registry],
    collect() {
      this.set(pool.load);
    },
  });
  new Gauge({
    name: 'card_render_pool_waiting',
    help: 'Cards waiting for a render worker in this process (all keys together; each key waits in its own lane).',
    registers: [registry],
    collect() {
      this.set(pool.waiting);
    },
  });
  const abandoned = new Counter({
    name: 'card_render_jobs_abandoned_total',
    help: 'Cards dropped before they were drawn because no request waited for them any more (deadline passed, client gone).',
    registers: [registry],
  });
  return {
    phases(timings: Readonly<Record<string, number>>) {
      for (const [phase, ms] of Object.entries(timings)) phases.observe({ phase }, ms / 1000);
    },
    /** An image could not be fetched or used: counted by reason (forbidden_address, timeout, corrupt...). */
    imageFailed(error: unknown) {
      if (error instanceof ImageFetchError || error instanceof CardImageError) imageFailures.inc({ reason: error.reason });
    },
    jobFinished: (outcome: 'completed' | 'failed' | 'retried') => jobs.inc({ outcome }),
    jobAbandoned: () => abandoned.inc(),
    queueWait: (ms: number) => waited.observe(Math.max(0, ms) / 1000),
  };
}

/** A counter fed at scrape time from cumulative counts kept elsewhere (the pool, the profile source). */
function registerCountsCounter(registry: Registry, metric: { name: string; help: string; labelNames: string[] }, read: () => [labels: Record<string, string>, count: number][]): void {
  const reported = new Map<string, number>();
  new Counter({
    ...metric,
    registers: [registry],
    collect() {
      for (const [labels, count] of read()) {
        const key = JSON.stringify(labels);
        this.inc(labels, count - (reported.get(key) ?? 0));
        reported.set(key, count);
      }
    },
  });
}

/** Profile and image cache hits of the Discord profile source. */
export function registerDiscordCacheMetrics(registry: Registry, stats: () => DiscordProfilesStats): void {
  registerCountsCounter(
    registry,
    { name: 'discord_cache_lookups_total', help: 'Discord profile and CDN image cache lookups in this process, by cache and result.', labelNames: ['cache', 'result'] },
    () => {
      const now = stats();
      return [
        [{ cache: 'profile', result: 'hit' }, now.profileCacheHits],
        [{ cache: 'profile', result: 'miss' }, now.profileCacheMisses],
        [{ cache: 'image', result: 'hit' }, now.imageCacheHits],
        [{ cache: 'image', result: 'miss' }, now.imageCacheMisses],
      ];
    },
  );
}
