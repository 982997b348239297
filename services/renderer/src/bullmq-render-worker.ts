import type { Logger } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import type { RenderEngine } from '@utility-api/render-engine';
import { RENDER_QUEUE_NAME, RENDER_QUEUE_PREFIX, renderJobPayloadSchema, type RenderJobResult } from '@utility-api/render-jobs';
import { UnrecoverableError, Worker } from 'bullmq';

/**
 * The renderer's BullMQ worker. A job's answer is its return value, failures the client should
 * hear included; the job fails only when renderers crash on it, which the gateway hears as
 * `render_failed`. A `retryable` failure is thrown while attempts remain, so BullMQ retries it
 * with the producer's backoff, and answered on the last one.
 */
export function createRenderWorker(parts: {
  connection: RedisClient;
  engine: RenderEngine;
  concurrency: number;
  /** How long a job stays locked without renewal, and how often stalled jobs are looked for. */
  locks: { lockDurationMs: number; stalledIntervalMs: number };
  logger: Logger;
}): Worker<unknown, RenderJobResult> {
  const { logger } = parts;
  const worker = new Worker<unknown, RenderJobResult>(
    RENDER_QUEUE_NAME,
    async (job) => {
      const parsed = renderJobPayloadSchema.safeParse(job.data);
      // A job this renderer cannot read came from a mismatched producer; retrying cannot help.
      if (!parsed.success) throw new UnrecoverableError('render job payload does not match the contract');
      const attempt = job.attemptsMade + 1;
      const result = await parts.engine.process(parsed.data, { jobId: job.id, attempt });
      if (result.ok) return result;
      // A card that crashed its worker fails the job at once: another renderer would crash too,
      // and the failed job is what makes identical requests refused while it is kept.
      if (result.failure.code === 'render_failed') throw new UnrecoverableError(result.failure.detail);
      if (result.failure.retryable && attempt < (job.opts.attempts ?? 1)) throw new Error(result.failure.detail);
      return result;
    },
    {
      connection: parts.connection, prefix: RENDER_QUEUE_PREFIX, concurrency: parts.concurrency,
      lockDuration: parts.locks.lockDurationMs, stalledInterval: parts.locks.stalledIntervalMs,
      // A job that stalls twice (two renderers died on it) fails instead of killing a third.
      maxStalledCount: 1,
      autorun: false,
    },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'render worker error'));
  worker.on('stalled', (jobId) => logger.warn({ jobId }, 'render job stalled; picked up again'));
  return worker;
}
