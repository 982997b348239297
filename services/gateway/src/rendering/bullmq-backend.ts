import { withDeadline, type Logger } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import {
  RENDER_FAILED,
  RENDER_JOB_NAME,
  RENDER_JOB_OPTIONS,
  RENDER_QUEUE_NAME,
  RENDER_QUEUE_PREFIX,
  RENDER_RETENTION,
  renderJobResultSchema,
  type RenderJobPayload,
  type RenderJobResult,
} from '@utility-api/render-jobs';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import { RenderQueueUnavailableError, type RenderBackend } from './render-queue.ts';

/**
 * A QueueEvents stream can miss an event (it starts at "now", and reconnects skip ahead), so a
 * waiter that heard nothing for this long asks Redis for the job's state directly.
 */
const RECHECK_INTERVAL_MS = 2000;

/** A job fails only when renderers crashed on it (or gave up on a card that crashed its worker). */
const FAILED_JOB: RenderJobResult = { ok: false, failure: RENDER_FAILED };

/** A completed job's return value, or `render_failed` for one that does not match the contract. */
function readResult(returnvalue: unknown): RenderJobResult {
  try {
    // QueueEvents hands the value over as JSON text, a fetched Job already parsed.
    const parsed = renderJobResultSchema.safeParse(typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue);
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: no result either.
  }
  return FAILED_JOB;
}

/**
 * Distributed mode: one Queue and one QueueEvents per gateway process. The render queue above
 * runs one wait per job id at a time, so each job has one waiter here, fed by the shared
 * QueueEvents (no `waitUntilFinished`: it adds a listener per call and races with job removal).
 * Every wait registers its waiter before it reads the job, so a completion between the two is
 * never lost.
 */
export async function createBullmqBackend(parts: { producer: RedisClient; events: RedisClient; logger: Logger; registry: Registry }): Promise<RenderBackend & { close(): Promise<void> }> {
  const queue = new Queue(RENDER_QUEUE_NAME, { connection: parts.producer, prefix: RENDER_QUEUE_PREFIX });
  const queueEvents = new QueueEvents(RENDER_QUEUE_NAME, { connection: parts.events, prefix: RENDER_QUEUE_PREFIX, autorun: true });
  queue.on('error', (error) => parts.logger.warn({ err: error }, 'render queue error'));
  queueEvents.on('error', (error) => parts.logger.warn({ err: error }, 'render queue events error'));
  await queueEvents.waitUntilReady();
  new Gauge({
    name: 'card_render_queue_jobs',
    help: 'Render jobs in the shared queue by state, read from Redis at scrape time.',
    labelNames: ['state'],
    registers: [parts.registry],
    async collect() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed').catch(() => undefined);
      for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
    },
  });

  const waiters = new Map<string, { resolve(result: RenderJobResult): void; reject(error: unknown): void }>();
  const settle = (jobId: string, outcome: { result: RenderJobResult } | { error: unknown }) => {
    const waiter = waiters.get(jobId);
    waiters.delete(jobId);
    if ('result' in outcome) waiter?.resolve(outcome.result);
    else waiter?.reject(outcome.error);
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

  /**
   * The job's stored answer if it is finished, 'pending' while it runs, 'absent' when Redis has
   * none, 'expired' for a failed job past RENDER_RETENTION.failedAgeSeconds (BullMQ removes those
   * only when another job fails, so one may linger: its card may be tried again).
   */
  const finishedState = async (jobId: string): Promise<RenderJobResult | 'pending' | 'absent' | 'expired'> => {
    const job = await Job.fromId<unknown, unknown>(queue, jobId);
    if (!job) return 'absent';
    if (job.finishedOn === undefined) return 'pending';
    // A job that completed after a failed attempt keeps that attempt's failedReason: its value decides.
    const result = readResult(job.returnvalue);
    if (result.ok || result.failure.code !== 'render_failed') return result;
    // Refused for what is left of the wait from when it failed, so Retry-After tells it.
    const leftMs = job.finishedOn + RENDER_RETENTION.failedAgeSeconds * 1000 - Date.now();
    return leftMs > 0 ? { ok: false, failure: { ...result.failure, retryAfterSeconds: leftMs / 1000 } } : 'expired';
  };

  const submitAndWait = async (jobId: string, payload: RenderJobPayload, answer: Promise<RenderJobResult>, deadlineMs: number, submitted: () => void) => {
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
      throw new RenderQueueUnavailableError(error);
    }
    submitted();
    // Nobody listens past the deadline: the queue's callers have given up by then.
    return { result: await withDeadline(answer, deadlineMs, 'card render'), reused };
  };

  return {
    kind: 'bullmq',
    async run(jobId, payload, deadlineMs) {
      const answer = new Promise<RenderJobResult>((resolve, reject) => waiters.set(jobId, { resolve, reject }));
      // Awaited below; a Redis loss may reject it before then, which must not count as unhandled.
      answer.catch(() => {});
      let inQueue = false;
      const recheck = setInterval(() => {
        finishedState(jobId).then((state) => {
          if (typeof state === 'object') settle(jobId, { result: state });
          // A job that was in the queue and is gone without an answer was lost with Redis's data
          // (a restart, or a cluster failover before the job reached the replica): nothing will
          // answer it, so the client hears 503 now rather than at the deadline, and its retry re-adds it.
          else if (state === 'absent' && inQueue) settle(jobId, { error: new RenderQueueUnavailableError(new Error('the render job is gone from Redis')) });
        }, () => {});
      }, RECHECK_INTERVAL_MS);
      try {
        return await submitAndWait(jobId, payload, answer, deadlineMs, () => (inQueue = true));
      } finally {
        clearInterval(recheck);
        waiters.delete(jobId);
      }
    },
    async ping() {
      await parts.producer.ping();
    },
    async close() {
      parts.producer.off('close', onConnectionLost);
      failAllWaiters('gateway shutting down');
      await queueEvents.close();
      await queue.close();
    },
  };
}
