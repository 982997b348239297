import type { Logger } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import type { RenderEngine } from '@utility-api/render-engine';
import {
  cardAnimationEncoding,
  RENDER_ABANDONED_REASON,
  RENDER_QUEUE_NAME,
  RenderAbandonedError,
  renderQueueShards,
  renderJobPayloadSchema,
  REPLY_STREAM,
  replyFields,
  replyStreamKey,
  type RenderJobResult,
  type ReplyEntry,
} from '@utility-api/render-jobs';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';

/**
 * How often a renderer asks whether the jobs it holds are still wanted. A job is held while its
 * images download and while it waits for a render worker here; the gateway marks it abandoned
 * when every request for it has gone (it removes jobs still queued itself).
 */
const ABANDONED_CHECK_MS = 500;

/**
 * How long a job this renderer cannot start yet goes back to the queue for: an animated card of a
 * key that already draws as many here as one key may (the pool's `animatedPerTenant`). Holding
 * it would take a job slot that another key's card could use; back in the queue it keeps its
 * priority, and any renderer with room may take it.
 */
const NO_ROOM_DELAY_MS = 250;

/**
 * The renderer's BullMQ worker. A job's answer is its return value, failures the client should
 * hear included; the job fails only when renderers crash on it, which the gateway hears as
 * `render_failed`. A `retryable` failure is thrown while attempts remain, so BullMQ retries it
 * with the producer's backoff, and answered on the last one. A job nobody waits for any more is
 * dropped before it is drawn (failed with RENDER_ABANDONED_REASON, which the gateway reads as no
 * verdict on the card) and never retried.
 *
 * One BullMQ Worker per render queue shard (`shards`), each taking up to `concurrency` jobs, all
 * sharing this renderer's bookkeeping (the jobs it holds, a key's animated jobs): so every shard
 * is always read (none starves behind another's backlog), and a key's limit on animated jobs holds
 * across shards. A renderer can hold up to shards × concurrency jobs; its render pool's lanes then
 * order them between keys.
 */
export function createRenderWorkers(parts: {
  connection: RedisClient;
  /** The render engine, or only what the worker uses of it (the distributed bench's no-op renderer). */
  engine: Pick<RenderEngine, 'process'> & { pool: Pick<RenderEngine['pool'], 'animatedPerTenant'> };
  concurrency: number;
  /** How long a job stays locked without renewal, and how often stalled jobs are looked for. */
  locks: { lockDurationMs: number; stalledIntervalMs: number };
  logger: Logger;
  /** RENDER_QUEUE_SHARDS: the same on every gateway and renderer. */
  shards: number;
}): Worker<unknown, RenderJobResult>[] {
  const { logger, connection } = parts;
  const shards = renderQueueShards(parts.shards);
  /** The jobs this renderer holds, each with the signal that tells the engine nobody waits any more. */
  const held = new Map<string, AbortController>();
  const isAbandoned = async (jobId: string) => (await connection.exists(shards.abandoned(jobId))) === 1;
  /** Animated jobs this renderer holds (from pickup to answer), by key. */
  const animatedHeld = new Map<string, number>();

  const processJob = async (job: Job<unknown, RenderJobResult>, token: string | undefined): Promise<RenderJobResult> => {
      const parsed = renderJobPayloadSchema.safeParse(job.data);
      // A job this renderer cannot read came from a mismatched producer; retrying cannot help.
      if (!parsed.success) throw new UnrecoverableError('render job payload does not match the contract');
      const jobId = job.id!;
      const tenant = parsed.data.keyId ?? '';
      const animated = cardAnimationEncoding(parsed.data) !== undefined;
      if (animated && (animatedHeld.get(tenant) ?? 0) >= parts.engine.pool.animatedPerTenant) {
        await job.moveToDelayed(Date.now() + NO_ROOM_DELAY_MS, token);
        throw new DelayedError();
      }
      if (animated) animatedHeld.set(tenant, (animatedHeld.get(tenant) ?? 0) + 1);
      const attempt = job.attemptsMade + 1;
      const abandoned = new AbortController();
      held.set(jobId, abandoned);
      let result: RenderJobResult;
      try {
        result = await parts.engine.process(parsed.data, { jobId, attempt, signal: abandoned.signal });
      } catch (error) {
        if (error instanceof RenderAbandonedError) throw new UnrecoverableError(RENDER_ABANDONED_REASON);
        throw error;
      } finally {
        held.delete(jobId);
        if (animated) {
          const left = (animatedHeld.get(tenant) ?? 1) - 1;
          if (left <= 0) animatedHeld.delete(tenant);
          else animatedHeld.set(tenant, left);
        }
      }
      if (result.ok) return result;
      // A card that crashed its worker fails the job at once: another renderer would crash too,
      // and the failed job is what makes identical requests refused while it is kept.
      if (result.failure.code === 'render_failed') throw new UnrecoverableError(result.failure.detail);
      const retry = result.failure.retryable && attempt < (job.opts.attempts ?? 1);
      // Another attempt for nobody would only take a render slot from a card someone waits for.
      if (retry && !(await isAbandoned(jobId).catch(() => false))) throw new Error(result.failure.detail);
      return result;
  };

  const workers = shards.shards.map(
    (shard) =>
      new Worker<unknown, RenderJobResult>(RENDER_QUEUE_NAME, processJob, {
        connection, prefix: shard.prefix, concurrency: parts.concurrency,
        lockDuration: parts.locks.lockDurationMs, stalledInterval: parts.locks.stalledIntervalMs,
        // A job that stalls twice (two renderers died on it) fails instead of killing a third.
        maxStalledCount: 1,
        autorun: false,
      }),
  );

  // One round trip per shard for every held job of it (their keys share the shard's hash tag, so one cluster slot).
  const checkHeld = async () => {
    const byShard = new Map<number, string[]>();
    for (const jobId of held.keys()) {
      const index = shards.shardOf(jobId).index;
      byShard.set(index, [...(byShard.get(index) ?? []), jobId]);
    }
    await Promise.all(
      [...byShard.values()].map(async (jobIds) => {
        const answers = await connection.pipeline(jobIds.map((jobId) => ['exists', shards.abandoned(jobId)])).exec();
        jobIds.forEach((jobId, index) => {
          if (answers?.[index]?.[1] !== 1) return;
          const controller = held.get(jobId);
          if (controller && !controller.signal.aborted) {
            logger.info({ jobId }, 'render job abandoned by every request: dropping it');
            controller.abort();
          }
        });
      }),
    );
  };
  const checker = setInterval(() => void checkHeld().catch((error: unknown) => logger.debug({ err: error }, 'could not check for abandoned render jobs')), ABANDONED_CHECK_MS);
  checker.unref();
  let open = workers.length;
  for (const worker of workers) worker.on('closed', () => (open -= 1) === 0 && clearInterval(checker));

  /**
   * Hands a finished job's answer to the gateways waiting for it: one entry on each registered
   * gateway's reply stream. Run once BullMQ has stored the job as finished, so a gateway that
   * registers after the waiters were read finds the answer in the job itself (it registers before
   * it reads the job). The waiter hash is deleted with the same round trip: the gateways answered
   * here do not leave the job (one script call fewer per card), and one that registered since
   * reads the finished job and leaves as usual. NOMKSTREAM: a dead gateway's expired stream is not
   * brought back. A lost entry (a failover, an error here) is found by the waiter's recheck of the job.
   */
  const deliver = async (entry: ReplyEntry) => {
    const waiters = shards.waiters(entry.jobId);
    const [read] = (await connection.pipeline().hkeys(waiters).del(waiters).exec()) ?? [];
    if (read?.[0]) throw read[0];
    const gateways = (read?.[1] ?? []) as string[];
    const fields = replyFields(entry);
    await Promise.all(gateways.map((gatewayId) => connection.xadd(replyStreamKey(gatewayId), 'NOMKSTREAM', 'MAXLEN', '~', REPLY_STREAM.maxLength, '*', ...fields)));
  };
  const deliverLogged = (entry: ReplyEntry) => void deliver(entry).catch((error: unknown) => logger.debug({ err: error, jobId: entry.jobId }, 'could not deliver a render answer; its waiters will find it in the job'));
  for (const worker of workers) {
    worker.on('completed', (job, result) => deliverLogged({ jobId: job.id!, result: JSON.stringify(result) }));
    // Only a final failure answers (an attempt BullMQ retries has no finishedOn). Jobs failed by the
    // stalled-job check (renderers that died on them) are not seen here: their waiters' recheck finds them.
    worker.on('failed', (job) => {
      if (job?.id !== undefined && job.finishedOn !== undefined) deliverLogged({ jobId: job.id, failedReason: job.failedReason });
    });
    worker.on('error', (error) => logger.error({ err: error }, 'render worker error'));
    worker.on('stalled', (jobId) => logger.warn({ jobId }, 'render job stalled; picked up again'));
  }
  return workers;
}
