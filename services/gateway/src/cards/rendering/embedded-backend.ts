import { ERROR_CATALOGUE } from '@utility-api/api-errors';
import type { Logger } from '@utility-api/infra';
import type { RenderEngine } from '@utility-api/render-engine';
import { RENDER_FAILED, RenderAbandonedError, type RenderJobResult } from '@utility-api/render-jobs';
import type { RenderBackend } from './render-queue.ts';

const OVERLOADED: RenderJobResult = {
  ok: false,
  failure: { code: 'overloaded', status: ERROR_CATALOGUE.overloaded.status, detail: 'Too many cards are being drawn right now. Please retry shortly.', retryAfterSeconds: ERROR_CATALOGUE.overloaded.retryAfter },
};

/**
 * Embedded mode: the job contract served by the render engine in this process. At most `limit`
 * distinct cards wait or draw at once: beyond that a card is refused (`overloaded`) rather than
 * queued behind minutes of work it would time out on anyway. Each card waits for a render worker
 * in its key's lane (the pool's fair scheduling), and one nobody waits for any more leaves the
 * queue at once. No retries: a card that crashed its worker is final, and storage or Discord
 * trouble is the client's to retry.
 */
export function createEmbeddedBackend(parts: { engine: RenderEngine; limit: number; logger: Logger }): RenderBackend {
  let running = 0;
  return {
    async run(jobId, payload, abandoned) {
      if (running >= parts.limit) {
        parts.logger.warn({ limit: parts.limit }, 'render queue full: refusing a new card');
        return { result: OVERLOADED, reused: false };
      }
      running += 1;
      try {
        return { result: await parts.engine.process(payload, { jobId, signal: abandoned }), reused: false };
      } catch (error) {
        if (error instanceof RenderAbandonedError) throw error;
        // Logged by the engine; as a job that crashed its renderers, refused while it is remembered.
        return { result: { ok: false, failure: RENDER_FAILED }, reused: false };
      } finally {
        running -= 1;
      }
    },
  };
}
