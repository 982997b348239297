import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@utility-api/infra';
import {
  decodeRenderFailure,
  RENDER_FAILURE_CODES,
  RENDER_JOB_OPTIONS,
  RENDER_RETENTION,
  RenderFailureError,
  renderJobId,
  type RenderFailure,
  type RenderJobPayload,
  type RenderJobResult,
} from '@utility-api/render-jobs';
import type { RenderJobProcessor } from '@utility-api/renderer';
import { withDeadline } from './deadline.ts';
import { RecentRenders } from './recent-renders.ts';
import { RenderFailedError, type RenderOutcome, type RenderQueue } from './render-queue.ts';

const OVERLOADED: RenderFailure = {
  code: 'overloaded',
  status: RENDER_FAILURE_CODES.overloaded,
  message: 'Too many cards are being drawn right now. Please retry shortly.',
  retryAfterSeconds: 1,
};

/**
 * Embedded mode: the same job contract served in this process. The processor draws in render
 * worker processes, identical requests share one render, and transient failures are retried with
 * the same attempts and backoff as BullMQ jobs; permanent ones are not. At most `limit` distinct
 * cards wait or draw at once: beyond that a request is refused (`overloaded`) rather than queued
 * behind minutes of work it would time out on anyway.
 */
export function createEmbeddedRenderQueue(parts: { processor: RenderJobProcessor; limit: number; logger: Logger }): RenderQueue {
  const inFlight = new Map<string, Promise<RenderJobResult>>();
  const recent = new RecentRenders({ maxEntries: 10_000, maxAgeMs: RENDER_RETENTION.completedAgeSeconds * 1000 });
  // A card that crashed its worker (or ran out of retries) is refused for identical requests, as
  // BullMQ's failed jobs are in distributed mode: drawing it again would only crash another worker.
  const poisonCards = new RecentRenders<RenderFailure>({ maxEntries: 10_000, maxAgeMs: RENDER_RETENTION.failedAgeSeconds * 1000 });

  const runWithRetries = async (jobId: string, payload: RenderJobPayload): Promise<RenderJobResult> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await parts.processor.process(payload, { jobId, attempt });
      } catch (error) {
        const permanent = error instanceof RenderFailureError && error.permanent;
        if (permanent || attempt >= RENDER_JOB_OPTIONS.attempts) {
          const failure = error instanceof RenderFailureError ? error.failure : decodeRenderFailure(undefined);
          if (failure.code === 'render_failed') poisonCards.set(jobId, failure);
          throw new RenderFailedError(failure);
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
      const poisoned = poisonCards.get(jobId);
      if (poisoned) throw new RenderFailedError(poisoned);
      let running = inFlight.get(jobId);
      const reused = running !== undefined;
      if (!running) {
        if (inFlight.size >= parts.limit) {
          parts.logger.warn({ limit: parts.limit }, 'render queue full: refusing a new card');
          throw new RenderFailedError(OVERLOADED);
        }
        running = runWithRetries(jobId, payload).then((result) => {
          recent.set(jobId, result);
          return result;
        });
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
