/**
 * The BullMQ queue both services use. The version suffix changes when the payload or result shape
 * changes incompatibly, so old renderers never pick up jobs they cannot read during a rolling deploy.
 */
export const RENDER_QUEUE_NAME = 'card-render-v3';

/**
 * BullMQ's key prefix for that queue (instead of its default `bull`). The braces are a Redis
 * Cluster hash tag: every key of the queue hashes to one slot, which BullMQ's multi-key Lua
 * scripts need on a cluster; on one server they change nothing but the key names.
 */
export const RENDER_QUEUE_PREFIX = '{card-render}';

/** The job name inside the queue (BullMQ requires one; there is only one kind of job). */
export const RENDER_JOB_NAME = 'render-card';

/**
 * How long finished jobs stay in Redis. Completed jobs must outlive the gateway's deadline (a
 * waiter that checks the job after its completion event must still find the result) and they are
 * what lets an identical request be answered without rendering; failed jobs stay briefly for
 * inspection and are replaced by a fresh attempt when the same card is asked for again.
 */
export const RENDER_RETENTION = { completedAgeSeconds: 600, completedMaxCount: 50_000, failedAgeSeconds: 300 } as const;

/** Options of every render job, set by the producer so every renderer retries the same way. */
export const RENDER_JOB_OPTIONS = {
  /** Transient failures (storage blip, renderer crash) are retried; bad input fails at once. */
  attempts: 3,
  backoff: { type: 'exponential', delay: 200 },
  removeOnComplete: { age: RENDER_RETENTION.completedAgeSeconds, count: RENDER_RETENTION.completedMaxCount },
  removeOnFail: { age: RENDER_RETENTION.failedAgeSeconds },
} as const;
