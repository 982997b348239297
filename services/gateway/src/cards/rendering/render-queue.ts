import { withDeadline } from '@utility-api/infra';
import { RENDER_RETENTION, RenderAbandonedError, renderJobId, type RenderJobPayload, type RenderJobResult } from '@utility-api/render-jobs';
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
  /**
   * The job's result; `reused` when the backend already had it (a job another gateway queued).
   * `abandoned` aborts when no request waits for the job any more: the backend withdraws a job
   * not yet drawn and rejects with RenderAbandonedError, or, when the job is past withdrawing,
   * may still resolve with its result (which then answers later identical requests).
   */
  run(jobId: string, payload: RenderJobPayload, abandoned: AbortSignal): Promise<RenderOutcome>;
}

export type RenderQueue = ReturnType<typeof createRenderQueue>;

/** The queue itself is unreachable (Redis down): nothing was enqueued. */
export class RenderQueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the render queue is unavailable', { cause });
    this.name = 'RenderQueueUnavailableError';
  }
}

/** The request that waited for a card has gone (its client hung up). */
export class RequestGoneError extends Error {
  constructor() {
    super('the client closed the request');
    this.name = 'RequestGoneError';
  }
}

/** One job in progress and the requests of this process waiting for it. */
interface Flight {
  promise: Promise<RenderOutcome>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

/**
 * The one deduplicating render queue over either backend. Identical requests (same job id) share
 * one render while it runs; a finished card answers them from memory for as long as BullMQ keeps
 * completed jobs, and a card that crashed its renderer (`render_failed`) is refused at once for as
 * long as it keeps failed ones. Other failures (a bad image, storage down) are tried afresh.
 * When the last request waiting for a job leaves it (its deadline passed, its client hung up),
 * the job is abandoned: withdrawn if it is not being drawn yet, never retried if it is.
 */
export function createRenderQueue(backend: RenderBackend) {
  const recent = new LRUCache<string, RenderJobResult>({ max: 10_000, ttl: RENDER_RETENTION.completedAgeSeconds * 1000 });
  const inFlight = new Map<string, Flight>();

  // A refusal lasts as long as its Retry-After says (the whole wait, or what the backend found
  // left of it in a failed job another gateway saw), and a repeat hears what is left (the
  // endpoint rounds it up to whole seconds).
  const remember = (jobId: string, result: RenderJobResult) => {
    if (result.ok) recent.set(jobId, result);
    else if (result.failure.code === 'render_failed') recent.set(jobId, result, { ttl: (result.failure.retryAfterSeconds ?? RENDER_RETENTION.failedAgeSeconds) * 1000 });
  };
  const stillRefused = (jobId: string, result: RenderJobResult): RenderJobResult =>
    result.ok ? result : { ...result, failure: { ...result.failure, retryAfterSeconds: recent.getRemainingTTL(jobId) / 1000 } };

  const start = (jobId: string, payload: RenderJobPayload): Flight => {
    const controller = new AbortController();
    const flight: Flight = { promise: backend.run(jobId, payload, controller.signal), controller, waiters: 0, settled: false };
    inFlight.set(jobId, flight);
    // Attached before any waiter's: the entry is gone (and the flight known settled, so nobody
    // abandons a finished job) by the time a waiter hears the outcome.
    const settle = () => {
      flight.settled = true;
      if (inFlight.get(jobId) === flight) inFlight.delete(jobId);
    };
    void flight.promise.then(({ result }) => {
      settle();
      remember(jobId, result);
    }, settle);
    return flight;
  };

  return {
    /**
     * Throws DeadlineError past `deadlineMs`, RequestGoneError once `gone` aborts, and
     * RenderQueueUnavailableError. Renders are shared only between requests of the same
     * `requester` (renderJobId); a job nobody waits for any more is abandoned.
     */
    async render(payload: RenderJobPayload, deadlineMs: number, requester?: string, gone?: AbortSignal): Promise<RenderOutcome> {
      const jobId = renderJobId(payload, requester);
      const deadlineAt = performance.now() + deadlineMs;
      for (;;) {
        const known = recent.get(jobId);
        if (known) return { result: stillRefused(jobId, known), reused: true };
        let flight = inFlight.get(jobId);
        const joined = flight !== undefined;
        flight ??= start(jobId, { ...payload, ...(requester === undefined ? {} : { keyId: requester }) });
        flight.waiters += 1;
        try {
          const outcome = await withDeadline(flight.promise, deadlineAt - performance.now(), 'card render', gone);
          return joined ? { ...outcome, reused: true } : outcome;
        } catch (error) {
          if (gone?.aborted) throw new RequestGoneError();
          // This caller joined a job whose earlier waiters had all left, and the backend withdrew
          // it before it was drawn: while this caller still has time, it asks again.
          if (error instanceof RenderAbandonedError && performance.now() < deadlineAt) {
            if (inFlight.get(jobId) === flight) inFlight.delete(jobId);
            continue;
          }
          throw error;
        } finally {
          flight.waiters -= 1;
          if (flight.waiters === 0 && !flight.settled) flight.controller.abort();
        }
      }
    },
    /** Jobs this process waits on (diagnostics and tests). */
    get inFlight() {
      return inFlight.size;
    },
  };
}
