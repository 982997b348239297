import { withDeadline, type Logger } from '@utility-api/infra';
import {
  RENDER_FAILED,
  RENDER_JOB_NAME,
  RENDER_JOB_OPTIONS,
  RENDER_QUEUE_NAME,
  renderJobResultSchema,
  type RenderJobPayload,
  type RenderJobResult,
} from '@utility-api/render-jobs';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { RenderQueueUnavailableError, type RenderBackend } from './render-queue.ts';

interface Waiter {
  resolve(result: RenderJobResult): void;
  reject(error: unknown): void;
}

/**
 * A QueueEvents stream can miss an event (it starts at "now", and reconnects skip ahead), so a
 * waiter that heard nothing for this long asks Redis for the job's state directly.
 */
const RECHECK_INTERVAL_MS = 2000;

/** A job fails only when renderers crashed on it (or gave up on a card that crashed its worker). */
const FAILED_JOB: RenderJobResult = { ok: false, failure: RENDER_FAILED };

/** A completed job's return value, or `render_failed` for one that does not match the contract. */
function readResult(returnvalue: unknown): RenderJobResult {
  const parsed = renderJobResultSchema.safeParse(typeof returnvalue === 'string' ? safeJson(returnvalue) : returnvalue);
  return parsed.success ? parsed.data : FAILED_JOB;
}

/**
 * Distributed mode: one Queue and one QueueEvents per gateway process. Completion is signalled
 * through our own waiter table fed by the shared QueueEvents (no `waitUntilFinished`: it adds a
 * listener per call and races with job removal), and every wait starts by registering the waiter,
 * then reading the job, so a completion between the two is never lost.
 */
export async function createBullmqBackend(parts: {
  producer: Redis;
  events: Redis;
  logger: Logger;
}): Promise<RenderBackend & { close(): Promise<void>; counts(): Promise<Record<string, number>> }> {
  const queue = new Queue(RENDER_QUEUE_NAME, { connection: parts.producer });
  const queueEvents = new QueueEvents(RENDER_QUEUE_NAME, { connection: parts.events, autorun: true });
  queue.on('error', (error) => parts.logger.warn({ err: error }, 'render queue error'));
  queueEvents.on('error', (error) => parts.logger.warn({ err: error }, 'render queue events error'));
  await queueEvents.waitUntilReady();

  const waiters = new Map<string, Set<Waiter>>();
  const settle = (jobId: string, outcome: { result: RenderJobResult } | { error: unknown }) => {
    const listeners = waiters.get(jobId);
    waiters.delete(jobId);
    for (const waiter of listeners ?? []) {
      if ('result' in outcome) waiter.resolve(outcome.result);
      else waiter.reject(outcome.error);
    }
  };
  queueEvents.on('completed', ({ jobId, returnvalue }) => settle(jobId, { result: readResult(returnvalue) }));
  // Emitted once the job is finally failed, not for the attempts BullMQ retries.
  queueEvents.on('failed', ({ jobId }) => settle(jobId, { result: FAILED_JOB }));
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

  /** The job's stored answer if it is finished, 'pending' while it runs, 'absent' when Redis has none. */
  const finishedState = async (jobId: string): Promise<RenderJobResult | 'pending' | 'absent'> => {
    const job = await Job.fromId<unknown, unknown>(queue, jobId);
    if (!job) return 'absent';
    // A job that completed after a failed attempt keeps that attempt's failedReason: its value decides.
    return job.finishedOn === undefined ? 'pending' : readResult(job.returnvalue);
  };

  const waitFor = (jobId: string): { promise: Promise<RenderJobResult>; cancel(): void } => {
    let waiter!: Waiter;
    const promise = new Promise<RenderJobResult>((resolve, reject) => {
      waiter = { resolve, reject };
    });
    waiters.set(jobId, (waiters.get(jobId) ?? new Set<Waiter>()).add(waiter));
    const recheck = setInterval(() => {
      finishedState(jobId).then(
        (state) => typeof state === 'object' && settle(jobId, { result: state }),
        () => {},
      );
    }, RECHECK_INTERVAL_MS);
    const cancel = () => {
      clearInterval(recheck);
      const current = waiters.get(jobId);
      current?.delete(waiter);
      if (current?.size === 0) waiters.delete(jobId);
    };
    return { promise, cancel };
  };

  return {
    kind: 'bullmq',
    async run(jobId, payload: RenderJobPayload, deadlineMs) {
      const wait = waitFor(jobId);
      let reused = true;
      try {
        const state = await finishedState(jobId);
        // A finished card, or renderers that died on this one (re-adding it would kill more of
        // them), answers identical requests until the job ages out of Redis. Any other failure
        // (a bad image, storage, Discord) is no verdict forever: a fresh attempt.
        if (typeof state === 'object' && (state.ok || state.failure.code === 'render_failed')) settle(jobId, { result: state });
        else if (state !== 'pending') {
          if (state !== 'absent') await queue.remove(jobId);
          await queue.add(RENDER_JOB_NAME, payload, { jobId, ...RENDER_JOB_OPTIONS });
          reused = false;
        }
      } catch (error) {
        wait.cancel();
        throw new RenderQueueUnavailableError(error);
      }
      // Nobody listens past the deadline: the queue's callers have given up by then.
      try {
        return { result: await withDeadline(wait.promise, deadlineMs, 'card render'), reused };
      } finally {
        wait.cancel();
      }
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
