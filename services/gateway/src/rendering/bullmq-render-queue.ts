import type { Logger } from '@utility-api/infra';
import {
  decodeRenderFailure,
  RENDER_JOB_NAME,
  RENDER_JOB_OPTIONS,
  RENDER_QUEUE_NAME,
  RENDER_RETENTION,
  renderJobId,
  renderJobResultSchema,
  type RenderJobPayload,
  type RenderJobResult,
} from '@utility-api/render-jobs';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { withDeadline } from './deadline.ts';
import { RecentRenders } from './recent-renders.ts';
import { RenderFailedError, RenderQueueUnavailableError, type RenderOutcome, type RenderQueue } from './render-queue.ts';

interface Waiter {
  resolve(result: RenderJobResult): void;
  reject(error: unknown): void;
}

/**
 * A QueueEvents stream can miss an event (it starts at "now", and reconnects skip ahead), so a
 * waiter that heard nothing for this long asks Redis for the job's state directly.
 */
const RECHECK_INTERVAL_MS = 2000;

/**
 * Distributed mode: one Queue and one QueueEvents per gateway process. Completion is signalled
 * through our own waiter table fed by the shared QueueEvents (no `waitUntilFinished`: it adds a
 * listener per call and races with job removal), and every wait starts by registering the waiter,
 * then reading the job, so a completion between the two is never lost.
 */
export async function createBullmqRenderQueue(parts: {
  producer: Redis;
  events: Redis;
  logger: Logger;
}): Promise<RenderQueue & { close(): Promise<void>; counts(): Promise<Record<string, number>> }> {
  const queue = new Queue(RENDER_QUEUE_NAME, { connection: parts.producer });
  const queueEvents = new QueueEvents(RENDER_QUEUE_NAME, { connection: parts.events, autorun: true });
  queue.on('error', (error) => parts.logger.warn({ err: error }, 'render queue error'));
  queueEvents.on('error', (error) => parts.logger.warn({ err: error }, 'render queue events error'));
  await queueEvents.waitUntilReady();

  const waiters = new Map<string, Set<Waiter>>();
  const inFlight = new Map<string, Promise<RenderOutcome>>();
  const recent = new RecentRenders({ maxEntries: 10_000, maxAgeMs: RENDER_RETENTION.completedAgeSeconds * 1000 });

  const settle = (jobId: string, outcome: { result: RenderJobResult } | { error: unknown }) => {
    const listeners = waiters.get(jobId);
    if (!listeners) return;
    waiters.delete(jobId);
    for (const waiter of listeners) {
      if ('result' in outcome) waiter.resolve(outcome.result);
      else waiter.reject(outcome.error);
    }
  };
  const parseResult = (value: unknown): RenderJobResult | undefined => {
    const parsed = renderJobResultSchema.safeParse(typeof value === 'string' ? safeJson(value) : value);
    return parsed.success ? parsed.data : undefined;
  };
  queueEvents.on('completed', ({ jobId, returnvalue }) => {
    const result = parseResult(returnvalue);
    if (result) settle(jobId, { result });
    else settle(jobId, { error: new RenderFailedError(decodeRenderFailure(undefined)) });
  });
  queueEvents.on('failed', ({ jobId, failedReason }) => {
    settle(jobId, { error: new RenderFailedError(decodeRenderFailure(failedReason)) });
  });
  // A request waiting on a job when Redis goes away gets a prompt 503 rather than the deadline: a
  // restarted Redis may have forgotten the job, and if it kept it, the client's retry reuses the render.
  const failAllWaiters = (reason: string) => {
    for (const jobId of [...waiters.keys()]) settle(jobId, { error: new RenderQueueUnavailableError(new Error(reason)) });
  };
  const onConnectionLost = () => {
    if (waiters.size > 0) parts.logger.warn({ waiting: waiters.size }, 'lost the Redis connection: failing requests waiting on renders');
    failAllWaiters('lost the Redis connection');
  };
  parts.producer.on('close', onConnectionLost);

  /** What the job's stored state says, if it is finished. */
  const finishedState = async (jobId: string): Promise<{ result: RenderJobResult } | { error: unknown } | 'pending' | 'absent'> => {
    const job = await Job.fromId<unknown, unknown>(queue, jobId);
    if (!job) return 'absent';
    if (job.finishedOn === undefined) return 'pending';
    const result = parseResult(job.returnvalue);
    if (result) return { result };
    return { error: new RenderFailedError(decodeRenderFailure(job.failedReason)) };
  };

  const waitFor = (jobId: string): { promise: Promise<RenderJobResult>; cancel(): void } => {
    let waiter!: Waiter;
    const promise = new Promise<RenderJobResult>((resolve, reject) => {
      waiter = { resolve, reject };
    });
    const listeners = waiters.get(jobId) ?? new Set<Waiter>();
    listeners.add(waiter);
    waiters.set(jobId, listeners);
    const recheck = setInterval(() => {
      finishedState(jobId).then(
        (state) => {
          if (typeof state === 'object') settle(jobId, state);
        },
        () => {},
      );
    }, RECHECK_INTERVAL_MS);
    const cancel = () => {
      clearInterval(recheck);
      const current = waiters.get(jobId);
      current?.delete(waiter);
      if (current?.size === 0) waiters.delete(jobId);
    };
    promise.then(cancel, cancel);
    return { promise, cancel };
  };

  const submit = async (jobId: string, payload: RenderJobPayload, deadlineMs: number): Promise<RenderOutcome> => {
    const wait = waitFor(jobId);
    let reused = false;
    try {
      const state = await finishedState(jobId);
      if (typeof state === 'object' && 'result' in state) {
        settle(jobId, state);
        reused = true;
      } else if (state === 'pending') {
        reused = true;
      } else if (typeof state === 'object' && isPoisonFailure(state.error)) {
        // Renderers died on this card (or gave up on it): re-adding it would kill more of them,
        // so identical requests get the same answer until the failed job ages out of Redis.
        settle(jobId, state);
        reused = true;
      } else {
        // Any other failure (storage, Discord) is not a verdict forever: a fresh attempt.
        if (typeof state === 'object') await queue.remove(jobId);
        await queue.add(RENDER_JOB_NAME, payload, { jobId, ...RENDER_JOB_OPTIONS });
      }
    } catch (error) {
      wait.cancel();
      throw new RenderQueueUnavailableError(error);
    }
    try {
      const result = await withDeadline(wait.promise, deadlineMs);
      recent.set(jobId, result);
      return { result, reused };
    } finally {
      wait.cancel();
    }
  };

  return {
    kind: 'bullmq',
    async render(payload, deadlineMs) {
      const jobId = renderJobId(payload);
      const done = recent.get(jobId);
      if (done) return { result: done, reused: true };
      // Identical requests on this gateway share one wait as well as one job.
      const running = inFlight.get(jobId);
      if (running) return { ...(await withDeadline(running, deadlineMs)), reused: true };
      const started = submit(jobId, payload, deadlineMs);
      inFlight.set(jobId, started);
      void started.finally(() => inFlight.delete(jobId)).catch(() => {});
      return started;
    },
    async ping() {
      await parts.producer.ping();
    },
    counts: () => queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
    async close() {
      parts.producer.off('close', onConnectionLost);
      failAllWaiters('gateway shutting down');
      await queueEvents.close();
      await queue.close();
    },
  };
}

/** A `render_failed` job: its renderers crashed or stalled until the retries ran out. */
function isPoisonFailure(error: unknown): boolean {
  return error instanceof RenderFailedError && error.failure.code === 'render_failed';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
