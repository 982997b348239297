import { RENDER_QUEUE_PREFIX } from './render-job-options.ts';

/**
 * Sharded render queues (`RENDER_QUEUE_SHARDS`): K BullMQ queues of the same name, each under its
 * own hash tag, so a Redis Cluster puts them on different masters and no one master runs every
 * card's queue scripts. A card's shard comes from its job id (a hash of the request), so identical
 * requests on any gateway meet in the same queue. Gateways and renderers must use the same K.
 */
export const RENDER_QUEUE_SHARDS = { default: 1, max: 64 } as const;

const CLUSTER_SLOTS = 16_384;

/** CRC16/XMODEM, the hash Redis Cluster takes of a key's hash tag (mod 16384) to find its slot. */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster slot of a hash tag's text (what is inside the braces). */
export const clusterSlotOf = (tag: string): number => crc16(tag) % CLUSTER_SLOTS;

/**
 * Shard i of K: `{card-render}` when K is 1 (the single queue's keys are unchanged), otherwise
 * `{card-render-<i>-<n>}` with the smallest n whose slot lies in the i-th K-th of the slot range.
 * A cluster created the usual way (`redis-cli --cluster create`: each master an equal run of
 * slots) then holds K/masters shards on each master when K is a multiple of the masters, not
 * whatever a hash of the names happens to give.
 */
function shardPrefix(index: number, shards: number): string {
  if (shards === 1) return RENDER_QUEUE_PREFIX;
  const from = Math.floor((index * CLUSTER_SLOTS) / shards);
  const to = Math.floor(((index + 1) * CLUSTER_SLOTS) / shards);
  for (let attempt = 0; ; attempt += 1) {
    const tag = `card-render-${index}-${attempt}`;
    const slot = clusterSlotOf(tag);
    if (slot >= from && slot < to) return `{${tag}}`;
  }
}

export interface RenderQueueShard {
  index: number;
  /** BullMQ's key prefix for this shard's queue, a hash tag. */
  prefix: string;
}

export interface RenderQueueShards {
  shards: readonly RenderQueueShard[];
  /** The shard of a job (`card-<uuid>` from renderJobId: its first 32 bits, mod K). */
  shardOf(jobId: string): RenderQueueShard;
  /** Redis keys beside a job's queue, under its shard's hash tag (one slot with the job). */
  waiters(jobId: string): string;
  abandoned(jobId: string): string;
}

/** The K shards; built once per process (finding each shard's tag takes a few hundred CRCs at most). */
export function renderQueueShards(count: number): RenderQueueShards {
  if (!Number.isInteger(count) || count < 1 || count > RENDER_QUEUE_SHARDS.max) throw new RangeError(`render queue shards must be 1 to ${RENDER_QUEUE_SHARDS.max}`);
  const shards = Array.from({ length: count }, (_, index) => ({ index, prefix: shardPrefix(index, count) }));
  const shardOf = (jobId: string) => {
    const head = Number.parseInt(jobId.slice(jobId.indexOf('-') + 1, jobId.indexOf('-') + 9), 16);
    return shards[Number.isNaN(head) ? 0 : head % count]!;
  };
  return {
    shards,
    shardOf,
    waiters: (jobId) => `${shardOf(jobId).prefix}:waiters:${jobId}`,
    abandoned: (jobId) => `${shardOf(jobId).prefix}:abandoned:${jobId}`,
  };
}

/**
 * Where Redis records the RENDER_QUEUE_SHARDS of the deployment: set by the first gateway or
 * renderer that starts, compared by every later one. Not under a shard's tag (its name would
 * depend on the count it records).
 */
export const RENDER_QUEUE_SHARDS_KEY = 'utility-api:render-queue-shards';

/** A process configured with another shard count than the one its gateways and renderers already use. */
class RenderQueueShardsMismatchError extends Error {
  constructor(configured: number, recorded: string) {
    super(
      `RENDER_QUEUE_SHARDS is ${configured} here but ${recorded} in Redis (${RENDER_QUEUE_SHARDS_KEY}, recorded by the first gateway or renderer): ` +
        'with another count this process would queue cards no renderer reads, or read queues no gateway fills. ' +
        `Start it with RENDER_QUEUE_SHARDS=${recorded}; to change the count, stop every gateway and renderer, delete ${RENDER_QUEUE_SHARDS_KEY}, and start them all with the new one.`,
    );
    this.name = 'RenderQueueShardsMismatchError';
  }
}

/**
 * Records `count` as the deployment's shard count if none is recorded yet, and refuses (throws
 * RenderQueueShardsMismatchError) when another one is: every gateway and renderer calls it at boot,
 * before it touches a queue. The record has no expiry: a mismatch is refused even after every
 * process stopped, since jobs may still wait in the queues of the recorded count.
 */
export async function claimRenderQueueShards(redis: { set(key: string, value: string, nx: 'NX'): Promise<unknown>; get(key: string): Promise<string | null> }, count: number): Promise<void> {
  if ((await redis.set(RENDER_QUEUE_SHARDS_KEY, String(count), 'NX')) === 'OK') return;
  const recorded = await redis.get(RENDER_QUEUE_SHARDS_KEY);
  // Deleted between the two calls (an operator changing the count): the next start records it.
  if (recorded !== null && recorded !== String(count)) throw new RenderQueueShardsMismatchError(count, recorded);
}
