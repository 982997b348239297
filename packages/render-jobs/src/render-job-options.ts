/**
 * The BullMQ queue both services use. The version suffix changes when the payload or result shape
 * changes incompatibly, so old renderers never pick up jobs they cannot read during a rolling deploy.
 */
export const RENDER_QUEUE_NAME = 'card-render-v7';

/**
 * BullMQ's key prefix for that queue (instead of its default `bull`). The braces are a Redis
 * Cluster hash tag: every key of the queue hashes to one slot, which BullMQ's multi-key Lua
 * scripts need on a cluster; on one server they change nothing but the key names.
 */
export const RENDER_QUEUE_PREFIX = '{card-render}';

/** The job name inside the queue (BullMQ requires one; the payload's `kind` says which card). */
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

/**
 * Each API key's render jobs in the queues (the rank that orders a key's cards behind its own; see
 * KEY_RANK_SCRIPT in the gateway), under the key's own hash tag: with sharded queues no one master
 * holds every key's ranks. A job's waiters and abandonment mark live beside its queue
 * (`renderQueueShards(...).waiters`, `.abandoned`).
 */
export const renderKeyJobsKey = (keyId: string) => `{card-key:${keyId}}:render-jobs`;

/**
 * The failed reason of a job a renderer dropped because nobody waited for it any more. Such a
 * failure is no verdict on the card: a later identical request draws it afresh.
 */
export const RENDER_ABANDONED_REASON = 'abandoned: no request waits for this card any more';

/** Thrown where a render stops because every request that wanted it has gone (deadline, hang-up). */
export class RenderAbandonedError extends Error {
  constructor() {
    super(RENDER_ABANDONED_REASON);
    this.name = 'RenderAbandonedError';
  }
}

/**
 * Each gateway's reply stream: renderers add a finished job's answer to the stream of every gateway
 * registered as its waiter (the job's waiter hash, `renderQueueShards(...).waiters`: gateway id → its waits), so a gateway reads only its own cards' answers
 * (no shared events stream every gateway reads in full). Under its own hash tag, so a cluster
 * spreads the gateways' streams over its masters. See docs/redis-cluster.md for the failure modes.
 */
export const replyStreamKey = (gatewayId: string) => `{card-reply:${gatewayId}}`;

export const REPLY_STREAM = {
  /**
   * The gateway refreshes its stream's expiry this often, and the stream outlives a dead gateway
   * by `ttlMs` at most; renderers add with NOMKSTREAM, so they never bring a dead gateway's back.
   */
  heartbeatMs: 5000,
  ttlMs: 30_000,
  /** Entries kept (approximately): a gateway that fell this far behind finds older answers by its recheck. */
  maxLength: 10_000,
} as const;

/** One reply-stream entry: the job and its answer (a RenderJobResult as JSON) or the job's final failed reason. */
export type ReplyEntry = { jobId: string; result: string } | { jobId: string; failedReason: string };

/** The entry's fields as XADD takes them. */
export const replyFields = (entry: ReplyEntry): string[] => ('result' in entry ? ['job', entry.jobId, 'result', entry.result] : ['job', entry.jobId, 'failed', entry.failedReason]);

/** An entry read back from XREAD's flat field list; undefined for anything else (the gateway's own heartbeat). */
export function readReplyFields(fields: readonly string[]): ReplyEntry | undefined {
  const [jobField, jobId, kind, value] = fields;
  if (jobField !== 'job' || jobId === undefined || value === undefined) return undefined;
  if (kind === 'result') return { jobId, result: value };
  if (kind === 'failed') return { jobId, failedReason: value };
  return undefined;
}
