import type { Logger } from '@utility-api/logging';
import { RENDER_QUEUE_NAME, renderJobPayloadSchema, RenderFailureError, type RenderJobResult } from '@utility-api/render-jobs';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RenderJobProcessor } from './render-job-processor.ts';

/**
 * Locks are short so a renderer that dies mid-job (SIGKILL, OOM) hands its job to another within
 * about `LOCK_DURATION_MS + STALLED_INTERVAL_MS`, well inside the gateway's deadline. Short locks
 * are safe because drawing happens on threads: the event loop renewing them never stalls.
 */
export const LOCK_DURATION_MS = 8000;
export const STALLED_INTERVAL_MS = 4000;

export function createRenderWorker(parts: {
  connection: Redis;
  processor: RenderJobProcessor;
  concurrency: number;
  logger: Logger;
}): Worker<unknown, RenderJobResult> {
  const { logger } = parts;
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
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      maxStalledCount: 1,
      autorun: false,
    },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'render worker error'));
  worker.on('stalled', (jobId) => logger.warn({ jobId }, 'render job stalled; picked up again'));
  return worker;
}
