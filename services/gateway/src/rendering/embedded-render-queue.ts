import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@utility-api/logging';
import {
  decodeRenderFailure,
  RENDER_JOB_OPTIONS,
  RENDER_RETENTION,
  RenderFailureError,
  renderJobId,
  type RenderJobPayload,
  type RenderJobResult,
} from '@utility-api/render-jobs';
import type { RenderJobProcessor } from '@utility-api/renderer';
import { withDeadline } from './deadline.ts';
import { RecentRenders } from './recent-renders.ts';
import { RenderFailedError, type RenderOutcome, type RenderQueue } from './render-queue.ts';

/**
 * Embedded mode: the same job contract served in this process. The processor draws on worker
 * threads, identical requests share one render, and transient failures are retried with the same
 * attempts and backoff as BullMQ jobs.
 */
export function createEmbeddedRenderQueue(parts: { processor: RenderJobProcessor; logger: Logger }): RenderQueue {
  const inFlight = new Map<string, Promise<RenderJobResult>>();
  const recent = new RecentRenders({ maxEntries: 10_000, maxAgeMs: RENDER_RETENTION.completedAgeSeconds * 1000 });

  const runWithRetries = async (jobId: string, payload: RenderJobPayload): Promise<RenderJobResult> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await parts.processor.process(payload, { jobId, attempt });
      } catch (error) {
        const permanent = error instanceof RenderFailureError && error.permanent;
        if (permanent || attempt >= RENDER_JOB_OPTIONS.attempts) {
          throw new RenderFailedError(error instanceof RenderFailureError ? error.failure : decodeRenderFailure(undefined));
        }
        await sleep(RENDER_JOB_OPTIONS.backoff.delay * 2 ** (attempt - 1));
      }
    }
  };

  return {
    kind: 'embedded',
    async render(payload, deadlineMs): Promise<RenderOutcome> {
      const jobId = renderJobId(payload);
      const done = recent.get(jobId);
      if (done) return { result: done, reused: true };
      let running = inFlight.get(jobId);
      const reused = running !== undefined;
      if (!running) {
        running = runWithRetries(jobId, payload).then(
          (result) => {
            recent.set(jobId, result);
            return result;
          },
        );
        const settled = running.finally(() => inFlight.delete(jobId));
        // The render goes on after a caller's deadline; its failure then has nobody to reach.
        settled.catch(() => {});
        inFlight.set(jobId, running);
      }
      const result = await withDeadline(running, deadlineMs);
      return { result, reused };
    },
    async ping() {},
  };
}
