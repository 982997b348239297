import { CardImageError } from '@utility-api/card';
import { ImageFetchError } from '@utility-api/safe-fetch';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CardRenderPool } from './card-pool/card-render-pool.ts';

const SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5, 10, 20];

/** What a render reports as it goes; both run modes register the same metrics. */
export type RenderMetrics = ReturnType<typeof createRenderMetrics>;

export function createRenderMetrics(registry: Registry, pool: CardRenderPool) {
  const phases = new Histogram({
    name: 'card_render_phase_seconds',
    help: 'Time per phase of a card render: profile, background, badges (fetches), render (worker process), draw, encode, store.',
    labelNames: ['phase'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const jobs = new Counter({ name: 'card_render_jobs_total', help: 'Render jobs finished, by outcome.', labelNames: ['outcome'], registers: [registry] });
  const imageFailures = new Counter({
    name: 'card_image_failures_total',
    help: 'Request and profile images refused or unusable, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const waited = new Histogram({
    name: 'card_render_queue_wait_seconds',
    help: 'Time a job waited in the queue before a renderer started it.',
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  registerWorkersLost(registry, pool);
  new Gauge({
    name: 'card_render_pool_load',
    help: 'Cards being drawn or waiting for a render worker in this process.',
    registers: [registry],
    collect() {
      this.set(pool.load);
    },
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
    queueWait: (ms: number) => waited.observe(Math.max(0, ms) / 1000),
  };
}

/** Render worker processes the pool lost, by cause, read from the pool's own counts at scrape time. */
function registerWorkersLost(registry: Registry, pool: CardRenderPool): void {
  const reported: Record<string, number> = {};
  new Counter({
    name: 'card_render_workers_lost_total',
    help: 'Render worker processes lost, by cause: crashed (signal or exit), memory (over RENDER_WORKER_MEMORY_MB), time (over RENDER_TIME_BUDGET_MS).',
    labelNames: ['cause'],
    registers: [registry],
    collect() {
      for (const [cause, count] of Object.entries(pool.workersLost)) {
        this.inc({ cause }, count - (reported[cause] ?? 0));
        reported[cause] = count;
      }
    },
  });
}
