import { checkRedisAtBoot, runService } from '@utility-api/infra';
import { createRedisConnection } from '@utility-api/infra/redis';
import { claimRenderQueueShards, type RenderJobResult } from '@utility-api/render-jobs';
import { createRenderWorkers } from '../../services/renderer/src/bullmq-render-worker.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';

/**
 * The renderer of `pnpm bench --distributed`: the real renderer's BullMQ worker (the same queue
 * reads, locks, abandonment checks and result delivery) around an engine that draws nothing and
 * answers every card with one fixed stored image. What the bench then measures is the path a card
 * takes through the gateways and Redis, not drawing, which `--scale` and the card bench measure.
 */
const NOOP_RESULT: RenderJobResult = {
  ok: true,
  mediaKey: '00000000-0000-8000-8000-000000000000',
  format: 'png',
  altText: 'A bench card.',
  width: 934,
  height: 282,
  bytes: 1,
  timings: {},
  warnings: [],
};

await runService({
  service: 'renderer',
  loadConfig: loadRendererConfig,
  shuttingDown: 'shutting down',
  async start(config, logger, lifecycle) {
    const redis = lifecycle.add('redis', createRedisConnection(config.redis, 'blocking', 'renderer'), (connection) => void connection.disconnect());
    await checkRedisAtBoot(redis, { allowEviction: config.allowRedisEviction, logger });
    await claimRenderQueueShards(redis, config.queueShards);
    const engine = { process: async () => NOOP_RESULT, pool: { animatedPerTenant: 1 } };
    const workers = createRenderWorkers({ connection: redis, engine, concurrency: config.concurrency, locks: config.locks, logger, shards: config.queueShards });
    for (const worker of workers) {
      lifecycle.add('render worker', worker, (running) => running.close());
      void worker.run().catch((error: unknown) => logger.error({ err: error }, 'render worker stopped'));
    }
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    logger.info('renderer ready');
  },
});
