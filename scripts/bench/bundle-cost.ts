import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { startRedisServer } from '../local-stack/redis-server.ts';
import { REPO_ROOT } from '../local-stack/service-process.ts';
import { mainThreadCpuSeconds } from './proc-stats.ts';
import { commandDelta, parseCommandStats } from './redis-stats.ts';
import { spreadOf, type Spread } from './stats.ts';

/**
 * Issue 32 item 3, the bundled-job design's Redis cost, measured before it is built
 * (`node scripts/bench/bundle-cost.ts [rounds] [seconds] [in-flight]`). One redis-server; in this
 * process a gateway-like producer and a no-op BullMQ worker run the Redis traffic the design sends
 * per card, nothing else: the key's rank (today's KEY_RANK_SCRIPT), one script that registers the
 * waiter and claims the card's state hash (dedupe: a card whose hash exists is joined, not added),
 * cards of one (shard, priority) coalesced into one BullMQ job of up to `bundle` cards (flushed when
 * full or at the end of the event-loop turn), one script per bundle on the worker that stores every
 * card's answer and reads and deletes its waiters, one XADD per waiting gateway per bundle (its
 * cards' answers as one entry), the gateway's XREAD and its ZREM of the rank. Bundles of 1 are what
 * a lone card would cost. The real system today (one job per card) is `command-origins.ts` and
 * `pnpm bench --distributed`; this prototype is for judging the design, not a measurement of it built.
 */
/** What this bench uses of BullMQ. */
interface BullMQ {
  Queue: new (name: string, options: object) => { add(name: string, data: unknown, options: object): Promise<unknown>; obliterate(options: { force: boolean }): Promise<void>; close(): Promise<void> };
  Worker: new (name: string, processor: (job: { data: unknown }) => Promise<unknown>, options: object) => { waitUntilReady(): Promise<unknown>; close(): Promise<void> };
}
// The renderer's BullMQ (the root workspace does not depend on it): the version the services run.
const { Queue, Worker } = createRequire(`${REPO_ROOT}/services/renderer/package.json`)('bullmq') as BullMQ;
const rounds = Number(process.argv[2] ?? 3);
const windowSeconds = Number(process.argv[3] ?? 6);
const inFlight = Number(process.argv[4] ?? 256);
/** A key's rank → priority: ceil(rank / band). 1 is today's exact per-key round robin. */
const band = Number(process.argv[5] ?? 1);
const KEYS_SENDING = Number(process.argv[6] ?? 8);
/**
 * `folded`: two more folds the design allows. The card slot's own count is the rank (no rank script
 * or its ZREM), and the waiters are fields of the card's state hash (`w:<gateway>`: no waiter hash
 * to expire, read and delete beside it).
 */
const folded = process.argv[7] === 'folded';
/**
 * Shards the cards spread over (by their id, as renderQueueShards does): each coalesces apart, so a
 * bundle holds cards of one shard. One queue serves them all here, since a job's commands do not
 * depend on its shard: what the split changes is the fill.
 */
const SHARDS = Number(process.argv[8] ?? 1);
const BUNDLES = [1, 4, 16] as const;
const RETENTION_MS = 600_000;

/**
 * Stand-ins for the gateway's admission, which bundling does not touch: the request budget
 * (rate-limiter-flexible's script, 1 + 3) and the key's card slot (1 + 3, given back by a ZREM).
 */
const BUDGET_SCRIPT = `
redis.call('SET', KEYS[1], 0, 'EX', 60, 'NX')
local used = redis.call('INCRBY', KEYS[1], 1)
return {used, redis.call('PTTL', KEYS[1])}`;
const SLOT_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], 60000)
return redis.call('ZCARD', KEYS[1])`;
const KEY_RANK_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return redis.call('ZCARD', KEYS[1])`;
/** Waiter registered, abandonment taken back, the card's state read and, when it has none, claimed for the bundle. */
const REGISTER_CLAIM_SCRIPT = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
local state = redis.call('HMGET', KEYS[3], 'timestamp', 'finishedOn', 'failedReason', 'returnvalue', 'bundle')
if not state[1] then
  redis.call('HSET', KEYS[3], 'timestamp', ARGV[3], 'bundle', ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
  return 'claimed'
end
return state`;
/** The folded form: waiters as `w:<gateway>` fields of the card's hash. KEYS: abandoned, card. */
const FOLDED_REGISTER_CLAIM_SCRIPT = `
local state = redis.call('HMGET', KEYS[2], 'timestamp', 'finishedOn', 'failedReason', 'returnvalue', 'bundle')
redis.call('HINCRBY', KEYS[2], 'w:' .. ARGV[1], 1)
redis.call('DEL', KEYS[1])
if not state[1] then
  redis.call('HSET', KEYS[2], 'timestamp', ARGV[3], 'bundle', ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 'claimed'
end
return state`;
/** The folded finish: KEYS: card keys; ARGV: now, ttl, answers; returns each card's waiting gateways. */
const FOLDED_FINISH_SCRIPT = `
local gateways = {}
for i = 1, #KEYS do
  local fields = redis.call('HKEYS', KEYS[i])
  local waiting = {}
  for _, field in ipairs(fields) do
    if string.sub(field, 1, 2) == 'w:' then waiting[#waiting + 1] = string.sub(field, 3) end
  end
  gateways[i] = waiting
  redis.call('HSET', KEYS[i], 'finishedOn', ARGV[1], 'returnvalue', ARGV[2 + i])
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return gateways`;
/** Per card of a finished bundle: its answer stored, its waiters read and deleted. KEYS: card, waiters pairs; ARGV: now, ttl, answers. */
const FINISH_SCRIPT = `
local gateways = {}
for i = 1, #KEYS, 2 do
  redis.call('HSET', KEYS[i], 'finishedOn', ARGV[1], 'returnvalue', ARGV[2 + (i + 1) / 2])
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
  gateways[#gateways + 1] = redis.call('HKEYS', KEYS[i + 1])
  redis.call('DEL', KEYS[i + 1])
end
return gateways`;

type Commands = {
  budget(key: string): Promise<unknown>;
  slot(key: string, member: string, score: number): Promise<number>;
  rank(key: string, member: string, score: number): Promise<number>;
  registerClaim(waiters: string, abandoned: string, card: string, gateway: string, ttl: number, now: number, bundle: string): Promise<unknown>;
  finish(...args: (string | number)[]): Promise<string[][]>;
  foldedRegisterClaim(abandoned: string, card: string, gateway: string, ttl: number, now: number, bundle: string): Promise<unknown>;
  foldedFinish(...args: (string | number)[]): Promise<string[][]>;
};

const RESULT = JSON.stringify({ ok: true, mediaKey: '00000000-0000-8000-8000-000000000000', format: 'png', altText: 'A bench card.', width: 934, height: 282, bytes: 1, timings: {}, warnings: [] });
const PREFIX = '{card-render}';
const cardKey = (id: string) => `${PREFIX}:card:${id}`;
const waitersKey = (id: string) => `${PREFIX}:waiters:${id}`;
const abandonedKey = (id: string) => `${PREFIX}:abandoned:${id}`;

interface Round {
  bundle: number;
  cards: number;
  jobs: number;
  commandsPerCard: number;
  redisMsPerCard: number;
  top: string;
}

async function measure(url: string, pid: number, bundle: number, round: number): Promise<Round> {
  const producer = new Redis(url, { maxRetriesPerRequest: null }) as Redis & Commands;
  const reader = new Redis(url, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(url, { maxRetriesPerRequest: null }) as Redis & Commands;
  for (const connection of [producer, workerConnection]) {
    connection.defineCommand('budget', { numberOfKeys: 1, lua: BUDGET_SCRIPT });
    connection.defineCommand('slot', { numberOfKeys: 1, lua: SLOT_SCRIPT });
    connection.defineCommand('rank', { numberOfKeys: 1, lua: KEY_RANK_SCRIPT });
    connection.defineCommand('registerClaim', { numberOfKeys: 3, lua: REGISTER_CLAIM_SCRIPT });
    connection.defineCommand('finish', { lua: FINISH_SCRIPT });
    connection.defineCommand('foldedRegisterClaim', { numberOfKeys: 2, lua: FOLDED_REGISTER_CLAIM_SCRIPT });
    connection.defineCommand('foldedFinish', { lua: FOLDED_FINISH_SCRIPT });
  }
  const name = `bundle-cost-${round}-${bundle}`;
  const queue = new Queue(name, { connection: producer, prefix: PREFIX });
  const gatewayId = randomUUID();
  const replyKey = `{card-reply:${gatewayId}}`;
  await producer.xadd(replyKey, '*', 'alive', '1');
  let jobs = 0;
  const worker = new Worker(
    name,
    async (job) => {
      const cards = (job.data as { v: 1; cards: { id: string }[] }).cards;
      const keys = folded ? cards.map((card) => cardKey(card.id)) : cards.flatMap((card) => [cardKey(card.id), waitersKey(card.id)]);
      const args = [keys.length, ...keys, Date.now(), RETENTION_MS, ...cards.map(() => RESULT)];
      const waiting = folded ? await workerConnection.foldedFinish(...args) : await workerConnection.finish(...args);
      const byGateway = new Map<string, string[]>();
      cards.forEach((card, index) => {
        for (const gateway of waiting[index] ?? []) byGateway.set(gateway, [...(byGateway.get(gateway) ?? []), 'job', card.id, 'result', RESULT]);
      });
      await Promise.all([...byGateway].map(([gateway, fields]) => workerConnection.xadd(`{card-reply:${gateway}}`, 'NOMKSTREAM', 'MAXLEN', '~', 10_000, '*', ...fields)));
      jobs += 1;
      return cards.length;
    },
    { connection: workerConnection, prefix: PREFIX, concurrency: 16, removeOnComplete: { age: 600, count: 50_000 } },
  );
  await worker.waitUntilReady();

  const waiting = new Map<string, { resolve(): void; keyId: string }>();
  let closed = false;
  let last = '0-0';
  const reading = (async () => {
    while (!closed) {
      const answer = await reader.xread('COUNT', 1000, 'BLOCK', 200, 'STREAMS', replyKey, last);
      for (const [, entries] of answer ?? []) {
        for (const [id, fields] of entries) {
          last = id;
          for (let index = 0; index + 3 < fields.length; index += 4) {
            const card = fields[index + 1]!;
            const waiter = waiting.get(card);
            waiting.delete(card);
            if (waiter) {
              if (!folded) void producer.zrem(`{card-key:${waiter.keyId}}:render-jobs`, card);
              void producer.zrem(`{card-key:${waiter.keyId}}:slots`, card);
              waiter.resolve();
            }
          }
        }
      }
    }
  })();

  // Cards of one priority gather into the open bundle: it admits up to `bundle` cards, each
  // claimed for it by id, and leaves when its claims are all in and it is full or the turn ended.
  interface Filling { id: string; bucket: number; priority: number; admitted: number; claiming: number; cards: { id: string; payload: unknown }[]; scheduled: boolean }
  const open = new Map<number, Filling>();
  const flush = (filling: Filling) => {
    if (filling.claiming > 0 || filling.cards.length === 0) return;
    if (open.get(filling.bucket) === filling) open.delete(filling.bucket);
    void queue.add('render-bundle', { v: 1, cards: filling.cards }, { jobId: filling.id, priority: filling.priority, attempts: 3, backoff: { type: 'exponential', delay: 200 }, removeOnComplete: { age: 600, count: 50_000 }, removeOnFail: { age: 300 } });
    filling.cards = [];
  };
  let sequence = 0;
  const card = async () => {
    sequence += 1;
    const keyId = `key-${sequence % KEYS_SENDING}`;
    const id = `card-${randomUUID()}`;
    const payload = { v: 7, kind: 'profile', userId: '80351110224678912', keyId, format: 'png', options: { customTag: `B ${process.pid} #${sequence}` } };
    const answered = new Promise<void>((resolve) => waiting.set(id, { resolve, keyId }));
    await producer.budget(`{card-key:${keyId}}:budget`);
    const slots = await producer.slot(`{card-key:${keyId}}:slots`, id, Date.now());
    const rank = folded ? slots : await producer.rank(`{card-key:${keyId}}:render-jobs`, id, Date.now());
    const priority = Math.max(1, Math.ceil(rank / band));
    const bucket = (Number.parseInt(id.slice(5, 13), 16) % SHARDS) * 10_000_000 + priority;
    let filling = open.get(bucket);
    if (!filling || filling.admitted >= bundle) {
      filling = { id: `bundle-${randomUUID()}`, bucket, priority, admitted: 0, claiming: 0, cards: [], scheduled: false };
      open.set(bucket, filling);
    }
    if (filling.admitted + 1 >= bundle) open.delete(bucket);
    filling.admitted += 1;
    filling.claiming += 1;
    const state = folded
      ? await producer.foldedRegisterClaim(abandonedKey(id), cardKey(id), gatewayId, RETENTION_MS, Date.now(), filling.id)
      : await producer.registerClaim(waitersKey(id), abandonedKey(id), cardKey(id), gatewayId, RETENTION_MS, Date.now(), filling.id);
    filling.claiming -= 1;
    if (state !== 'claimed') throw new Error('a fresh card was not claimed');
    filling.cards.push({ id, payload });
    if (filling.admitted >= bundle) flush(filling);
    else if (!filling.scheduled) {
      filling.scheduled = true;
      const mine = filling;
      setImmediate(() => {
        mine.scheduled = false;
        flush(mine);
      });
    }
    await answered;
  };

  // Warm up (scripts loaded, queue keys made), then the measured window.
  await Promise.all(Array.from({ length: 32 }, card));
  const admin = new Redis(url);
  const before = parseCommandStats(await admin.info('commandstats'));
  const cpuBefore = mainThreadCpuSeconds(pid)!;
  const jobsBefore = jobs;
  let cards = 0;
  const until = performance.now() + windowSeconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await card();
        cards += 1;
      }
    }),
  );
  const cpu = mainThreadCpuSeconds(pid)! - cpuBefore;
  const delta = commandDelta(before, parseCommandStats(await admin.info('commandstats')));
  const calls = delta.reduce((sum, command) => sum + command.calls, 0);
  closed = true;
  await reading.catch(() => {});
  await worker.close();
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  for (const connection of [producer, reader, workerConnection, admin]) connection.disconnect();
  return {
    bundle,
    cards,
    jobs: jobs - jobsBefore,
    commandsPerCard: calls / cards,
    redisMsPerCard: (cpu * 1000) / cards,
    top: delta.slice(0, 8).map((command) => `${command.command} ${(command.calls / cards).toFixed(2)}`).join(', '),
  };
}

const redis = await startRedisServer({});
const results: Round[] = [];
try {
  for (let round = 1; round <= rounds; round += 1) {
    // Interleaved: each round measures every bundle size once, in a rotated order.
    const order = BUNDLES.map((_, index) => BUNDLES[(index + round) % BUNDLES.length]!);
    for (const bundle of order) {
      const result = await measure(redis.url, redis.child.pid!, bundle, round);
      results.push(result);
      console.log(`round ${round} bundle ≤${bundle}: ${result.cards} cards in ${result.jobs} jobs (fill ${(result.cards / result.jobs).toFixed(1)}), ${(result.cards / windowSeconds).toFixed(0)} cards/s, ${result.commandsPerCard.toFixed(1)} commands/card, Redis ${result.redisMsPerCard.toFixed(3)} ms/card; ${result.top}`);
    }
  }
} finally {
  await redis.stop();
}
const line = (spread: Spread, digits: number) => `${spread.median.toFixed(digits)} (${spread.min.toFixed(digits)}-${spread.max.toFixed(digits)})`;
console.log(`\n${rounds} rounds of ${windowSeconds} s, ${inFlight} cards in flight, ${KEYS_SENDING} keys, rank band ${band}${folded ? ', folded' : ''}, ${SHARDS} shard(s); median (min-max):`);
console.log('bundle ≤ | fill | cards/s | commands/card | Redis ms/card | cards/s per shard at 70 % | 8 shards');
for (const bundle of BUNDLES) {
  const mine = results.filter((result) => result.bundle === bundle);
  const ms = spreadOf(mine.map((result) => result.redisMsPerCard));
  const perShard = spreadOf(mine.map((result) => 700 / result.redisMsPerCard));
  console.log(
    `${bundle} | ${line(spreadOf(mine.map((result) => result.cards / result.jobs)), 1)} | ${line(spreadOf(mine.map((result) => result.cards / windowSeconds)), 0)} | ${line(spreadOf(mine.map((result) => result.commandsPerCard)), 1)} | ${line(ms, 3)} | ${line(perShard, 0)} | ${(perShard.median * 8).toFixed(0)} (${(perShard.min * 8).toFixed(0)}-${(perShard.max * 8).toFixed(0)})`,
  );
}
