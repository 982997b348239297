import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import {
  RENDER_ABANDONED_REASON,
  RENDER_FAILED,
  RENDER_JOB_NAME,
  RENDER_JOB_OPTIONS,
  RENDER_QUEUE_NAME,
  RENDER_RETENTION,
  RenderAbandonedError,
  readReplyFields,
  renderKeyJobsKey,
  renderQueueShards,
  renderJobResultSchema,
  REPLY_STREAM,
  replyStreamKey,
  type RenderJobPayload,
  type RenderJobResult,
  type ReplyEntry,
} from '@utility-api/render-jobs';
import { Queue } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import { RenderQueueUnavailableError, type RenderBackend } from './render-queue.ts';

/**
 * A reply can be missed (a renderer's XADD lost in a failover, a gateway behind by more than the
 * stream keeps, a job failed by the stalled-job check, which no renderer answers), so a waiter
 * that heard nothing for this long asks Redis for the job's state directly.
 */
const RECHECK_INTERVAL_MS = 2000;

/**
 * How long one blocking read of the reply stream waits before it is sent again. Short enough that a
 * read parked on a connection the cluster moved away from is renewed soon.
 */
const REPLY_BLOCK_MS = 5000;
/** Answers taken from the reply stream per read. */
const REPLY_BATCH = 1000;
/** The pause after a failed read (Redis away, a failover) before the next. */
const REPLY_RETRY_MS = 250;

/** A job fails only when renderers crashed on it (or gave up on a card that crashed its worker). */
const FAILED_JOB: RenderJobResult = { ok: false, failure: RENDER_FAILED };

/**
 * How long the bookkeeping beside a job lives when nobody cleans it up (a gateway that died while
 * waiting): as long as a finished job is kept, far beyond any request's deadline.
 */
const BOOKKEEPING_TTL_MS = RENDER_RETENTION.completedAgeSeconds * 1000;

/** BullMQ's highest priority number (the lowest priority); a key's rank beyond it shares it. */
const LOWEST_PRIORITY = 2_097_151;

/**
 * A key's rank among its own cards in the queue: adds this job and counts. The rank is the job's
 * BullMQ priority (lower runs first), so every key's first card is ahead of every key's second
 * card, and so on: a key's cards queue behind its own, round robin between keys, without BullMQ
 * Pro's groups. Entries older than any job lives (left by a gateway that died) are pruned, and the
 * set's expiry renewed, when the set is new and on one call in KEY_RANK_PRUNE_EVERY (ARGV[5]):
 * a stale entry only lowers its key's priority a little until then, and every card pays two
 * commands fewer.
 */
const KEY_RANK_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local rank = redis.call('ZCARD', KEYS[1])
if rank == 1 or ARGV[5] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  if rank > 1 then rank = redis.call('ZCARD', KEYS[1]) end
end
return rank`;
const KEY_RANK_PRUNE_EVERY = 16;

/** The job hash's fields a waiter reads: `timestamp` (present in every stored job) tells absent from pending. */
const JOB_STATE_FIELDS = ['timestamp', 'finishedOn', 'failedReason', 'returnvalue'] as const;
type JobStateFields = (string | null)[];

/**
 * This gateway waits for the job: one wait more under its id in the job's waiter hash (renewing
 * the hash's expiry), any abandonment mark a renderer has not acted on taken back, and the job's
 * state read, in one round trip (all three keys under the job's shard's hash tag). Reading after
 * registering is what makes a finished job's answer never missed: a renderer reads the waiters
 * only once the job is stored as finished.
 */
const REGISTER_SCRIPT = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return redis.call('HMGET', KEYS[3], ${JOB_STATE_FIELDS.map((field) => `'${field}'`).join(', ')})`;

/**
 * This gateway leaves a job: one wait fewer under its id; returns how many gateways still wait
 * (0: nobody in the whole system waits for it now; the emptied hash is gone with its last field).
 */
const LEAVE_SCRIPT = `
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return redis.call('HLEN', KEYS[1])`;

type FairnessCommands = {
  cardKeyRank(key: string, jobId: string, now: number, staleBefore: number, ttlMs: number, prune: 0 | 1): Promise<number>;
  cardJobRegister(waitersKey: string, abandonedKey: string, jobKey: string, gatewayId: string, ttlMs: number): Promise<JobStateFields>;
  cardJobLeave(key: string, gatewayId: string): Promise<number>;
};

/** A completed job's return value, or `render_failed` for one that does not match the contract. */
function readResult(returnvalue: unknown): RenderJobResult {
  try {
    // JSON text, as BullMQ stores it and the reply stream hands it over.
    const parsed = renderJobResultSchema.safeParse(typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue);
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: no result either.
  }
  return FAILED_JOB;
}

/**
 * Distributed mode: one Queue and one reply stream per gateway process. The render queue above
 * runs one wait per job id at a time, so each job has one waiter here. Every wait registers this
 * gateway as the job's waiter in Redis before it reads the job, and a renderer hands a finished
 * job's answer to the reply stream of each gateway registered then (after storing the job as
 * finished), so an answer is either in the stream or in the job when the waiter reads it. Gateways
 * read no shared events stream: each reads its own cards' answers only. Fairness between keys is
 * the jobs' BullMQ priority (KEY_RANK_SCRIPT); a job nobody waits for any more is withdrawn or
 * marked (`leave`).
 */
export async function createBullmqBackend(parts: { producer: RedisClient; events: RedisClient; logger: Logger; registry: Registry; shards: number }): Promise<RenderBackend & { close(): Promise<void> }> {
  // One Queue per shard, all on the one producer connection; a job goes to its id's shard.
  const shards = renderQueueShards(parts.shards);
  const queues = shards.shards.map((shard) => new Queue(RENDER_QUEUE_NAME, { connection: parts.producer, prefix: shard.prefix }));
  for (const queue of queues) queue.on('error', (error) => parts.logger.warn({ err: error }, 'render queue error'));
  const queueOf = (jobId: string) => queues[shards.shardOf(jobId).index]!;
  /** This process's name in the jobs' waiter hashes; a restarted gateway is another one. */
  const gatewayId = randomUUID();
  const replyKey = replyStreamKey(gatewayId);
  new Gauge({
    name: 'card_render_queue_jobs',
    help: 'Render jobs in the shared queues (every shard) by state, read from Redis at scrape time.',
    labelNames: ['state'],
    registers: [parts.registry],
    async collect() {
      // Every job has a priority (its key's rank), so waiting jobs are in BullMQ's 'prioritized' state.
      const counts = await Promise.all(queues.map((queue) => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'))).catch(() => undefined);
      const totals = new Map<string, number>();
      for (const shard of counts ?? []) for (const [state, count] of Object.entries(shard)) totals.set(state, (totals.get(state) ?? 0) + count);
      for (const [state, count] of totals) this.set({ state }, count);
    },
  });

  const redis = parts.producer as RedisClient & FairnessCommands;
  redis.defineCommand('cardKeyRank', { numberOfKeys: 1, lua: KEY_RANK_SCRIPT });
  redis.defineCommand('cardJobLeave', { numberOfKeys: 1, lua: LEAVE_SCRIPT });
  redis.defineCommand('cardJobRegister', { numberOfKeys: 3, lua: REGISTER_SCRIPT });
  let rankCalls = 0;

  interface Waiter {
    resolve(result: RenderJobResult): void;
    reject(error: unknown): void;
    /**
     * Settled by a renderer's entry on the reply stream: that renderer has deleted the job's waiter
     * hash (this gateway's field with it) and the job is finished, so there is nothing to leave.
     */
    answeredOnStream?: boolean;
  }
  const waiters = new Map<string, Waiter>();
  const settle = (jobId: string, outcome: { result: RenderJobResult } | { error: unknown }, onStream = false) => {
    const waiter = waiters.get(jobId);
    waiters.delete(jobId);
    if (waiter && onStream) waiter.answeredOnStream = true;
    if ('result' in outcome) waiter?.resolve(outcome.result);
    else waiter?.reject(outcome.error);
  };
  const settleFromReply = (entry: ReplyEntry) => {
    if ('result' in entry) settle(entry.jobId, { result: readResult(entry.result) }, true);
    // A job a renderer dropped because nobody waited is no verdict on the card: a caller who came back asks again.
    else settle(entry.jobId, entry.failedReason === RENDER_ABANDONED_REASON ? { error: new RenderAbandonedError() } : { result: FAILED_JOB }, true);
  };

  /**
   * The stream exists while this gateway lives: created (and trimmed to what is unread) now and
   * every REPLY_STREAM.heartbeatMs, expiring REPLY_STREAM.ttlMs after the last, so a dead gateway's
   * stream goes away by itself and renderers (NOMKSTREAM) do not bring it back.
   */
  let lastReplyId = '0-0';
  const heartbeat = async () => {
    await parts.producer
      .multi()
      .xadd(replyKey, 'MAXLEN', '~', REPLY_STREAM.maxLength, '*', 'alive', '1')
      .xtrim(replyKey, 'MINID', lastReplyId)
      .pexpire(replyKey, REPLY_STREAM.ttlMs)
      .exec();
  };
  await heartbeat();
  const heartbeats = setInterval(() => void heartbeat().catch((error: unknown) => parts.logger.debug({ err: error }, 'could not refresh the reply stream')), REPLY_STREAM.heartbeatMs);
  heartbeats.unref();

  let closed = false;
  const readReplies = async () => {
    while (!closed) {
      try {
        const answer = (await parts.events.xread('COUNT', REPLY_BATCH, 'BLOCK', REPLY_BLOCK_MS, 'STREAMS', replyKey, lastReplyId));
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            lastReplyId = id;
            const entry = readReplyFields(fields);
            if (entry) settleFromReply(entry);
          }
        }
      } catch (error) {
        if (closed) return;
        parts.logger.debug({ err: error }, 'reply stream read failed; reading again');
        await sleep(REPLY_RETRY_MS);
      }
    }
  };
  void readReplies();

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
   * none, 'abandoned' when a renderer dropped it because nobody waited (to be asked again),
   * 'expired' for a failed job past RENDER_RETENTION.failedAgeSeconds (BullMQ removes those only
   * when another job fails, so one may linger: its card may be tried again).
   */
  const jobStateOf = ([timestamp, finishedOn, failedReason, returnvalue]: JobStateFields): RenderJobResult | 'pending' | 'absent' | 'abandoned' | 'expired' => {
    if (timestamp === null || timestamp === undefined) return 'absent';
    if (!finishedOn) return 'pending';
    if (failedReason === RENDER_ABANDONED_REASON) return 'abandoned';
    // A job that completed after a failed attempt keeps that attempt's failedReason: its value decides
    // (BullMQ stores it as JSON text; a failed job has none).
    const result = readResult(returnvalue ?? undefined);
    if (result.ok || result.failure.code !== 'render_failed') return result;
    // Refused for what is left of the wait from when it failed, so Retry-After tells it.
    const leftMs = Number(finishedOn) + RENDER_RETENTION.failedAgeSeconds * 1000 - Date.now();
    return leftMs > 0 ? { ok: false, failure: { ...result.failure, retryAfterSeconds: leftMs / 1000 } } : 'expired';
  };
  const jobKey = (jobId: string) => queueOf(jobId).toKey(jobId);
  const finishedState = async (jobId: string) => jobStateOf(await parts.producer.hmget(jobKey(jobId), ...JOB_STATE_FIELDS));

  /** The key's jobs in the queues, this one included (KEY_RANK_SCRIPT). */
  const keyRank = async (keyId: string, jobId: string) => {
    const now = Date.now();
    rankCalls += 1;
    return redis.cardKeyRank(renderKeyJobsKey(keyId), jobId, now, now - BOOKKEEPING_TTL_MS, BOOKKEEPING_TTL_MS, rankCalls % KEY_RANK_PRUNE_EVERY === 0 ? 1 : 0);
  };

  /** Adds the job behind the key's own cards; true once it is in the queue. */
  const addJob = async (jobId: string, payload: RenderJobPayload) => {
    let priority = 1;
    if (payload.keyId !== undefined) {
      const rank = await keyRank(payload.keyId, jobId);
      priority = Math.min(LOWEST_PRIORITY, Math.max(1, rank));
    }
    await queueOf(jobId).add(RENDER_JOB_NAME, payload, { jobId, priority, ...RENDER_JOB_OPTIONS });
  };

  /**
   * Registers this gateway as a waiter of the job (REGISTER_SCRIPT: its field in the job's waiter
   * hash, so renderers answer on its reply stream and a job another gateway also waits for is never
   * withdrawn under it; an abandonment a renderer has not acted on yet taken back) and reads the
   * job. Then adds the job unless it is running or has a lasting answer; 'added' when this call put
   * it in the queue.
   */
  const submit = async (jobId: string, payload: RenderJobPayload): Promise<'added' | 'joined' | RenderJobResult> => {
    const state = jobStateOf(await redis.cardJobRegister(shards.waiters(jobId), shards.abandoned(jobId), jobKey(jobId), gatewayId, BOOKKEEPING_TTL_MS));
    // A finished card, or renderers that died on this one (re-adding it would kill more of
    // them), answers identical requests until the job ages out of Redis. Any other failure
    // (a bad image, storage, Discord) is no verdict forever: a fresh attempt.
    if (typeof state === 'object' && (state.ok || state.failure.code === 'render_failed')) return state;
    if (state === 'pending') return 'joined';
    if (state !== 'absent') await queueOf(jobId).remove(jobId);
    await addJob(jobId, payload);
    return 'added';
  };

  /**
   * This gateway stops waiting for the job. When no gateway waits any more and it was abandoned,
   * a job still queued is removed (it will never be drawn), and one a renderer holds is marked,
   * so the renderer drops it if it has not started drawing and never retries it.
   */
  const leave = async (jobId: string, payload: RenderJobPayload, abandoned: boolean, added: boolean, inWaiterHash: boolean) => {
    const left = inWaiterHash ? await redis.cardJobLeave(shards.waiters(jobId), gatewayId) : 1;
    if (abandoned && left <= 0) {
      // 0 when a renderer holds the job's lock: it is being fetched for or drawn.
      const removed = await queueOf(jobId).remove(jobId);
      if (removed === 0) await redis.set(shards.abandoned(jobId), '1', 'PX', BOOKKEEPING_TTL_MS);
      parts.logger.info({ jobId, removed: removed === 1 }, removed === 1 ? 'render job abandoned: removed from the queue' : 'render job abandoned while a renderer holds it: marked');
    }
    // The job no longer counts to its key's rank once its adder stops waiting for it.
    if (added && payload.keyId !== undefined) await redis.zrem(renderKeyJobsKey(payload.keyId), jobId);
  };

  return {
    async run(jobId, payload, abandoned) {
      let waiter!: Waiter;
      const answer = new Promise<RenderJobResult>((resolve, reject) => (waiter = { resolve, reject }));
      // Awaited below; a Redis loss may reject it before then, which must not count as unhandled.
      answer.catch(() => {});
      // Registered before the job is read, so a completion between the two is never lost.
      waiters.set(jobId, waiter);
      const onAbandoned = () => waiter.reject(new RenderAbandonedError());
      abandoned.addEventListener('abort', onAbandoned, { once: true });
      let inQueue = false;
      let added = false;
      const recheck = setInterval(() => {
        finishedState(jobId).then((state) => {
          if (typeof state === 'object') settle(jobId, { result: state });
          else if (state === 'abandoned') settle(jobId, { error: new RenderAbandonedError() });
          // A job that was in the queue and is gone without an answer was lost with Redis's data
          // (a restart, or a cluster failover before the job reached the replica): nothing will
          // answer it, so the client hears 503 now rather than at the deadline, and its retry re-adds it.
          else if (state === 'absent' && inQueue) settle(jobId, { error: new RenderQueueUnavailableError(new Error('the render job is gone from Redis')) });
        }, () => {});
      }, RECHECK_INTERVAL_MS);
      let registered = false;
      try {
        let submitted: Awaited<ReturnType<typeof submit>>;
        try {
          registered = true;
          submitted = await submit(jobId, payload);
        } catch (error) {
          throw new RenderQueueUnavailableError(error);
        }
        if (typeof submitted === 'object') return { result: submitted, reused: true };
        added = submitted === 'added';
        inQueue = true;
        return { result: await answer, reused: !added };
      } finally {
        clearInterval(recheck);
        abandoned.removeEventListener('abort', onAbandoned);
        if (waiters.get(jobId) === waiter) waiters.delete(jobId);
        if (registered) {
          // Bookkeeping only: a Redis outage here must not turn an answer into an error.
          await leave(jobId, payload, abandoned.aborted, added, waiter.answeredOnStream !== true).catch((error: unknown) => parts.logger.debug({ err: error, jobId }, 'could not update render job bookkeeping'));
        }
      }
    },
    async close() {
      closed = true;
      clearInterval(heartbeats);
      parts.producer.off('close', onConnectionLost);
      failAllWaiters('gateway shutting down');
      // The stream goes now rather than at its expiry; the parked read ends with its connection.
      await parts.producer.del(replyKey).catch(() => {});
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
