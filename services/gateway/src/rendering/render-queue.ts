import type { RenderFailure, RenderJobPayload, RenderJobResult } from '@utility-api/render-jobs';

export interface RenderOutcome {
  result: RenderJobResult;
  /** True when an earlier identical request's render answered this one. */
  reused: boolean;
}

/**
 * How the gateway gets a card drawn: BullMQ and remote renderers in distributed mode, a pool of
 * render worker processes supervised by this one in embedded mode. Both share identical requests and honour the deadline.
 */
export interface RenderQueue {
  readonly kind: 'bullmq' | 'embedded';
  render(payload: RenderJobPayload, deadlineMs: number): Promise<RenderOutcome>;
  /** Resolves when the queue can take work; used by readiness probes. */
  ping(): Promise<void>;
}

/** The deadline passed before a renderer finished (the job may still complete later). */
export class RenderTimeoutError extends Error {
  constructor(deadlineMs: number) {
    super(`no renderer finished the card within ${deadlineMs} ms`);
    this.name = 'RenderTimeoutError';
  }
}

/** The queue itself is unreachable (Redis down): nothing was enqueued. */
export class RenderQueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the render queue is unavailable', { cause });
    this.name = 'RenderQueueUnavailableError';
  }
}

/** The render ran and failed for a reason the client should hear. */
export class RenderFailedError extends Error {
  readonly failure: RenderFailure;
  constructor(failure: RenderFailure) {
    super(failure.message);
    this.name = 'RenderFailedError';
    this.failure = failure;
  }
}
