import type { Lifecycle, Logger } from '@utility-api/infra';
import { createRedisConnection, waitUntilRedisReady } from '@utility-api/infra/redis';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createRenderWorker } from './bullmq-render-worker.ts';
import type { RendererConfig } from './config.ts';
import { startHealthServer } from './health-server.ts';
import { openMediaStore } from './open-media-store.ts';
import { checkRedisEvictionPolicy } from './redis-eviction-policy.ts';
import { createRenderingCore } from './rendering-core.ts';

const REDIS_BOOT_TIMEOUT_MS = 10_000;

/** Builds and starts one renderer; each resource registers its closer as it is created. */
export async function startRenderer(config: RendererConfig, logger: Logger, lifecycle: Lifecycle) {
  const redis = lifecycle.add('redis', createRedisConnection(config.redisUrl, 'blocking', 'renderer'), (connection) => void connection.disconnect());
  await waitUntilRedisReady(redis, REDIS_BOOT_TIMEOUT_MS);
  await checkRedisEvictionPolicy(redis, { allowEviction: config.allowRedisEviction, logger });
  const store = await openMediaStore(config.rendering.media, logger, lifecycle);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const core = createRenderingCore(config.rendering, { store, redis, logger, lifecycle, registry });
  core.pool.warmUp();

  const worker = createRenderWorker({ connection: redis, processor: core.processor, concurrency: config.concurrency, locks: config.locks, logger });
  worker.on('active', (job) => core.metrics.queueWait((job.processedOn ?? Date.now()) - job.timestamp));
  worker.on('completed', () => core.metrics.jobFinished('completed'));
  worker.on('failed', (job) => core.metrics.jobFinished(job?.finishedOn === undefined ? 'retried' : 'failed'));
  // worker.close() waits for jobs in progress: a SIGTERM drains instead of dropping work.
  lifecycle.add('render worker', worker, (running) => running.close());
  void worker.run().catch((error: unknown) => logger.error({ err: error }, 'render worker stopped'));
  await worker.waitUntilReady();

  const health = await startHealthServer({
    host: config.health.host,
    port: config.health.port,
    checks: {
      readiness: {
        redis: async () => void (await redis.ping()),
        storage: () => store.ping(),
      },
      metrics: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    },
  });
  lifecycle.add('health server', health.server, (server) => new Promise<void>((resolve) => server.close(() => resolve())));
  logger.info({ concurrency: config.concurrency, workers: core.pool.size, store: store.kind, health: health.url }, 'renderer ready');
  return { worker, store, healthUrl: health.url };
}
