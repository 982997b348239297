import { DeadlineError, withDeadline } from '@utility-api/infra';
import { RENDER_RETENTION, renderJobId, type RenderJobPayload, type RenderJobResult } from '@utility-api/render-jobs';
import { LRUCache } from 'lru-cache';

interface RenderOutcome {
  result: RenderJobResult;
  /** True when an earlier identical request's render answered this one. */
  reused: boolean;
}

/**
 * Where a job runs: BullMQ and remote renderers in distributed mode, the render engine in this
 * process in embedded mode. A backend answers each job once; the queue above it shares and caches.
 */
export interface RenderBackend {
  readonly kind: 'bullmq' | 'embedded';
  /** The job's result; `reused` when the backend already had it (a job another gateway queued). */
  run(jobId: string, payload: RenderJobPayload, deadlineMs: number): Promise<RenderOutcome>;
  /** Resolves when the backend can take work; used by readiness probes. */
  ping(): Promise<void>;
}

export type RenderQueue = ReturnType<typeof createRenderQueue>;

/** The queue itself is unreachable (Redis down): nothing was enqueued. */
export class RenderQueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the render queue is unavailable', { cause });
    this.name = 'RenderQueueUnavailableError';
  }
}

/**
 * The one deduplicating render queue over either backend. Identical requests (same job id) share
 * one render while it runs; a finished card answers them from memory for as long as BullMQ keeps
 * completed jobs, and a card that crashed its renderer (`render_failed`) is refused at once for as
 * long as it keeps failed ones. Other failures (a bad image, storage down) are tried afresh.
 */
export function createRenderQueue(backend: RenderBackend) {
  const recent = new LRUCache<string, RenderJobResult>({ max: 10_000, ttl: RENDER_RETENTION.completedAgeSeconds * 1000 });
  const inFlight = new Map<string, Promise<RenderOutcome>>();

  // A refusal lasts as long as its Retry-After says (the whole wait, or what the backend found
  // left of it in a failed job another gateway saw), and a repeat hears what is left (the
  // endpoint rounds it up to whole seconds).
  const remember = (jobId: string, result: RenderJobResult) => {
    if (result.ok) recent.set(jobId, result);
    else if (result.failure.code === 'render_failed') recent.set(jobId, result, { ttl: (result.failure.retryAfterSeconds ?? RENDER_RETENTION.failedAgeSeconds) * 1000 });
  };
  const stillRefused = (jobId: string, result: RenderJobResult): RenderJobResult =>
    result.ok ? result : { ...result, failure: { ...result.failure, retryAfterSeconds: recent.getRemainingTTL(jobId) / 1000 } };

  return {
    kind: backend.kind,
    ping: () => backend.ping(),
    /**
     * Throws DeadlineError past `deadlineMs` (the render goes on) and RenderQueueUnavailableError.
     * Renders are shared only between requests of the same `requester` (renderJobId).
     */
    async render(payload: RenderJobPayload, deadlineMs: number, requester?: string): Promise<RenderOutcome> {
      const jobId = renderJobId(payload, requester);
      const deadlineAt = performance.now() + deadlineMs;
      for (;;) {
        const known = recent.get(jobId);
        if (known) return { result: stillRefused(jobId, known), reused: true };
        const running = inFlight.get(jobId);
        if (!running) {
          const started = backend.run(jobId, payload, deadlineMs);
          inFlight.set(jobId, started);
          // The render goes on after a caller's deadline; its failure then has nobody to reach.
          void started.then(({ result }) => remember(jobId, result), () => {}).finally(() => inFlight.delete(jobId));
          return withDeadline(started, deadlineMs, 'card render');
        }
        try {
          return { ...(await withDeadline(running, deadlineAt - performance.now(), 'card render')), reused: true };
        } catch (error) {
          // The backend stopped waiting at the deadline of the caller that started the render; a
          // caller who joined later still has time, so it waits again (BullMQ finds the job running).
          if (!(error instanceof DeadlineError) || performance.now() >= deadlineAt) throw error;
          if (inFlight.get(jobId) === running) inFlight.delete(jobId);
        }
      }
    },
  };
}
