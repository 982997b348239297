import { checkRedisAtBoot, type Lifecycle, type Logger } from '@utility-api/infra';
import { createRedisConnection } from '@utility-api/infra/redis';
import { openMediaStore } from '@utility-api/media-store';
import { createRenderEngine } from '@utility-api/render-engine';
import { claimRenderQueueShards, RENDER_ABANDONED_REASON } from '@utility-api/render-jobs';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createRenderWorkers } from './bullmq-render-worker.ts';
import type { RendererConfig } from './config.ts';
import { startHealthServer } from './health-server.ts';

/** Builds and starts one renderer; each resource registers its closer as it is created. */
export async function startRenderer(config: RendererConfig, logger: Logger, lifecycle: Lifecycle): Promise<void> {
  const redis = lifecycle.add('redis', createRedisConnection(config.redis, 'blocking', 'renderer'), (connection) => void connection.disconnect());
  await checkRedisAtBoot(redis, { allowEviction: config.allowRedisEviction, logger });
  // Before any queue is read: a renderer on another shard count would leave some shards unread.
  await claimRenderQueueShards(redis, config.queueShards);
  const store = await openMediaStore(config.rendering.media, logger, lifecycle);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const engine = createRenderEngine(config.rendering, { store, redis, logger, lifecycle, registry });
  void engine.pool.warmUp();

  const workers = createRenderWorkers({ connection: redis, engine, concurrency: config.concurrency, locks: config.locks, logger, shards: config.queueShards });
  for (const worker of workers) {
    worker.on('active', (job) => engine.metrics.queueWait((job.processedOn ?? Date.now()) - job.timestamp));
    worker.on('completed', () => engine.metrics.jobFinished('completed'));
    worker.on('failed', (job) => {
      // Abandoned jobs are counted by the engine (card_render_jobs_abandoned_total), not as failures.
      if (job?.failedReason !== RENDER_ABANDONED_REASON) engine.metrics.jobFinished(job?.finishedOn === undefined ? 'retried' : 'failed');
    });
    // worker.close() waits for jobs in progress: a SIGTERM drains instead of dropping work.
    lifecycle.add('render worker', worker, (running) => running.close());
    void worker.run().catch((error: unknown) => logger.error({ err: error }, 'render worker stopped'));
  }
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));

  const health = await startHealthServer({
    ...config.health,
    checks: {
      readiness: { redis: async () => void (await redis.ping()), storage: () => store.ping() },
      metrics: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    },
  });
  lifecycle.add('health server', health.server, (server) => new Promise<void>((resolve) => server.close(() => resolve())));
  logger.info({ concurrency: config.concurrency, queueShards: config.queueShards, workers: engine.pool.size, store: store.kind, health: health.url }, 'renderer ready');
}
