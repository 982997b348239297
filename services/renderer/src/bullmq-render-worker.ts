import type { Logger } from '@utility-api/infra';
import { RENDER_QUEUE_NAME, renderJobPayloadSchema, RenderFailureError, type RenderJobResult } from '@utility-api/render-jobs';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RenderJobProcessor } from './render-job-processor.ts';

/**
 * Locks are short so a renderer that dies mid-job (SIGKILL, OOM) hands its job to another within
 * about `lockDurationMs + stalledIntervalMs`, well inside the gateway's deadline. Short locks
 * are safe because drawing happens in worker processes: the event loop renewing them never stalls.
 * `LOCK_DURATION_MS` and `STALLED_INTERVAL_MS` override them (tests shorten them further).
 */
export const DEFAULT_JOB_LOCKS = { lockDurationMs: 8000, stalledIntervalMs: 4000 } as const;

export interface JobLocks {
  lockDurationMs: number;
  stalledIntervalMs: number;
}

export function createRenderWorker(parts: {
  connection: Redis;
  processor: RenderJobProcessor;
  concurrency: number;
  locks?: JobLocks;
  logger: Logger;
}): Worker<unknown, RenderJobResult> {
  const { logger } = parts;
  const locks = parts.locks ?? DEFAULT_JOB_LOCKS;
  const worker = new Worker<unknown, RenderJobResult>(
    RENDER_QUEUE_NAME,
    async (job: Job<unknown, RenderJobResult>) => {
      const parsed = renderJobPayloadSchema.safeParse(job.data);
      if (!parsed.success) {
        // A job this renderer cannot read came from a mismatched producer; retrying cannot help.
        throw new UnrecoverableError('render job payload does not match the contract');
      }
      try {
        return await parts.processor.process(parsed.data, { jobId: job.id, attempt: job.attemptsMade + 1 });
      } catch (error) {
        if (error instanceof RenderFailureError && error.permanent) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    {
      connection: parts.connection,
      concurrency: parts.concurrency,
      lockDuration: locks.lockDurationMs,
      stalledInterval: locks.stalledIntervalMs,
      // A job that stalls twice (two renderers died on it) fails instead of killing a third.
      maxStalledCount: 1,
      autorun: false,
    },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'render worker error'));
  worker.on('stalled', (jobId) => logger.warn({ jobId }, 'render job stalled; picked up again'));
  return worker;
}
