import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisCluster, type RunningCluster } from '../../tests/support/cluster/redis-cluster.ts';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { startS3Server, type RunningS3 } from '../local-stack/s3-server.ts';
import { startServiceProcess, type ServiceProcess } from '../local-stack/service-process.ts';
import { HAS_TASKSET } from './bench-process.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { cpuSeconds, mainThreadCpuSeconds } from './proc-stats.ts';
import { USER_ID } from './profile-image.ts';
import { commandDelta, parseCommandStats, type CommandCount } from './redis-stats.ts';
import { median, percentile } from './stats.ts';
import { startClosedLoop, startPacedLoop, summarizeWindow } from './window-load.ts';

/**
 * `pnpm bench --distributed [--gateways=1,2,4] [--shards=1,3] [--renderers=2] [--rounds=3]
 * [--window=8] [--rates=60,180] [--per-gateway] [--idle=5] [--observer] [--keys=12] [--cpu-prof=<dir>]`.
 */
export interface DistributedSettings {
  gatewayCounts: number[];
  shardCounts: number[];
  renderers: number;
  rounds: number;
  windowSeconds: number;
  /** Offered cards/s of the two paced windows (open loop), in the whole system unless perGateway. */
  rates: [number, number];
  /** The rates are each gateway's (the total grows with the gateways) rather than the system's. */
  perGateway: boolean;
  /** The window with no load that gives each gateway's fixed CPU per second. */
  idleSeconds: number;
  /** One more gateway that takes no requests, to show what other gateways' cards cost it. */
  observer: boolean;
  /**
   * API keys the requests take turns with: each key's budget, card slots and rank set live under
   * its own hash tag, so with one key all of them land on one master and outweigh its share.
   */
  keys: number;
  /** A directory for a V8 CPU profile of the first gateway of every measurement (`node --cpu-prof`). */
  cpuProfileDir?: string;
}

const listArgument = (argv: readonly string[], name: string, fallback: number[], max = 16): number[] => {
  const given = argv.find((argument) => argument.startsWith(`--${name}=`));
  if (given === undefined) return fallback;
  const values = given.slice(name.length + 3).split(',').map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1 || value > max)) throw new Error(`--${name} takes whole numbers from 1 to ${max}, comma separated`);
  return values;
};

export function distributedSettingsFromArgs(argv: readonly string[]): DistributedSettings {
  const one = (name: string, fallback: number) => listArgument(argv, name, [fallback], 600)[0]!;
  const rates = listArgument(argv, 'rates', [60, 180], 100_000);
  const cpuProfileDir = argv.find((argument) => argument.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
  if (rates.length !== 2 || rates[0]! >= rates[1]!) throw new Error('--rates takes two offered rates, the lower first (cards/s)');
  return {
    gatewayCounts: listArgument(argv, 'gateways', [1, 2, 4]),
    shardCounts: listArgument(argv, 'shards', [1, 3]),
    renderers: one('renderers', 2),
    rounds: one('rounds', 3),
    windowSeconds: one('window', 8),
    rates: [rates[0]!, rates[1]!],
    perGateway: argv.includes('--per-gateway'),
    idleSeconds: one('idle', 5),
    observer: argv.includes('--observer'),
    keys: listArgument(argv, 'keys', [12], 1000)[0]!,
    ...(cpuProfileDir === undefined ? {} : { cpuProfileDir: resolve(cpuProfileDir) }),
  };
}

/** One paced window: what the system answered and what each process spent on it. */
export interface RateWindow {
  offeredPerSecond: number;
  cardsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  /** CPU ms per card of each gateway (all threads), and of all of them together. */
  gatewayMsPerCard: number[];
  allGatewaysMsPerCard: number;
  /** All gateways' CPU per card less their fixed CPU per second (the idle window's) over the window. */
  allGatewaysNetMsPerCard: number;
  /** The observer gateway's CPU per card of the system above its own idle CPU per second. */
  observerMsPerCard?: number;
  loadAverage: number;
}

export interface DistributedMeasurement {
  round: number;
  gateways: number;
  shards: number;
  /** Each gateway's CPU ms per second with no load at all (timers, polls, blocking reads, GC). */
  fixedMsPerSecond: number[];
  /** The observer's CPU ms per second with no load (when --observer). */
  observerFixedMsPerSecond?: number;
  /** The lower and the higher offered rate. */
  windows: [RateWindow, RateWindow];
  /**
   * All gateways' CPU per extra card between the two rates: (CPU/s at the higher − at the lower) /
   * (cards/s at the higher − at the lower). Fixed work per second cancels out: the per-card figure.
   */
  marginalMsPerCard: number;
  /** The higher rate's window, as the figures below. */
  cards: number;
  cardsPerSecond: number;
  gatewayMsPerCard: number[];
  allGatewaysMsPerCard: number;
  /** Redis main-thread CPU ms per card on each master, each master's share of them, and commands per card. */
  redisMsPerCard: number[];
  redisShares: number[];
  commandsPerCard: number;
  commandsPerCardByShard: number[];
  topCommands: { command: string; perCard: number }[];
  /** The system's cards/s when its busiest master is at one full core (1000 / that master's ms per card). */
  impliedCeiling: number;
}

/** Gateways with rate limits and quotas on (each request pays for its counters) and budgets no run uses up. */
const GATEWAY_ENV = { LOG_LEVEL: 'info', PLANS: 'bench:cards=1000000000,requests=1000000000', RATE_LIMIT_DEFAULT: '999999999/60s', RATE_LIMIT_PROFILE_IMAGE: '999999999/60s', CARDS_IN_FLIGHT_PER_KEY: '10000' };
/** Each window's own warm-up at its rate. */
const WARMUP_MS = 3000;
/** Cards each gateway (the observer too) answers before the measurements, and the most time that may take. */
const WARMUP_CARDS = 1500;
const WARMUP_CLIENTS = 8;
const WARMUP_LIMIT_MS = 60_000;
/** After the gateways are up and before the idle window, so their start-up work is not counted. */
const SETTLE_MS = 2000;
const GATEWAY_CORE = '0';
const OTHERS_CORE = '1';
const REQUEST_TIMEOUT_MS = 20_000;

interface Topology {
  shards: number;
  cluster: RunningCluster;
  masters: { port: number; pid: number }[];
  renderers: ServiceProcess[];
  env: Record<string, string>;
}

async function startTopology(shards: number, renderers: number, s3: RunningS3): Promise<Topology> {
  // Masters only: a replica's replication stream would be Redis work the figures do not ask about.
  const cluster = await startRedisCluster({ masters: shards, replicasPerMaster: 0 });
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodesEnv,
    RENDER_QUEUE_SHARDS: String(shards),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: 'cards',
  };
  const started = Array.from({ length: renderers }, (_, index) =>
    startServiceProcess({ name: `noop-renderer-${shards}-${index + 1}`, entry: 'scripts/bench/noop-renderer.ts', env: { ...env, LOG_LEVEL: 'info', RENDER_CONCURRENCY: '64', HEALTH_PORT: '0' } }),
  );
  await Promise.all(started.map((renderer) => renderer.waitFor(/renderer ready/, 60_000)));
  for (const process of [...started.map((renderer) => renderer.child.pid), ...cluster.nodes.map((node) => node.server.child.pid)]) pin(process, OTHERS_CORE);
  return { shards, cluster, masters: cluster.nodes.map((node) => ({ port: node.port, pid: node.server.child.pid! })), renderers: started, env };
}

async function commandStats(port: number): Promise<Map<string, CommandCount>> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return parseCommandStats(await redis.info('commandstats'));
  } finally {
    redis.disconnect();
  }
}

const must = (value: number | undefined, what: string) => {
  if (value === undefined) throw new Error(`could not read ${what} from /proc`);
  return value;
};

/** Pins a running process, every thread of it, to the given cores (a taskset list); nothing without taskset. */
function pin(pid: number | undefined, cpus: string): void {
  if (HAS_TASKSET && pid !== undefined) spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** Processes' CPU seconds, the masters' too, and the masters' command counts, at one moment. */
interface Snapshot {
  at: number;
  gateways: number[];
  redis: number[];
  commands: Map<string, CommandCount>[];
}

async function measure(topology: Topology, gateways: number, settings: DistributedSettings, round: number): Promise<DistributedMeasurement> {
  const started: ServiceProcess[] = [];
  const ports: number[] = [];
  const total = gateways + (settings.observer ? 1 : 0);
  const keys = Array.from({ length: settings.keys }, (_, index) => `${BENCH_API_KEY}-${index}`);
  try {
    for (let index = 0; index < total; index += 1) {
      const port = await freeLoopbackPort();
      ports.push(port);
      // The profile is named after the measurement, written when the gateway exits.
      const profile: Record<string, string> = index === 0 && settings.cpuProfileDir !== undefined ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${settings.cpuProfileDir} --cpu-prof-name=gateway-r${round}-s${topology.shards}-g${gateways}.cpuprofile` } : {};
      started.push(startServiceProcess({ name: index < gateways ? `gateway-${index + 1}` : 'observer-gateway', entry: GATEWAY_ENTRY, env: { ...topology.env, ...GATEWAY_ENV, ...profile, PORT: String(port), HOST: '127.0.0.1', API_KEYS: keys.join(',') } }));
    }
    await Promise.all(started.map((gateway) => gateway.waitFor(/gateway listening/, 60_000)));
    // Gateways on core 0, everything else (Redis, renderers, this load loop) on core 1.
    for (const gateway of started) pin(gateway.child.pid, GATEWAY_CORE);
    const snap = async (): Promise<Snapshot> => ({
      at: performance.now(),
      gateways: started.map((gateway) => must(cpuSeconds(gateway.child.pid), 'a gateway CPU time')),
      redis: topology.masters.map((master) => must(mainThreadCpuSeconds(master.pid), 'a Redis CPU time')),
      commands: await Promise.all(topology.masters.map((master) => commandStats(master.port))),
    });
    const perSecondMs = (before: Snapshot, after: Snapshot, index: number) => ((after.gateways[index]! - before.gateways[index]!) * 1000) / ((after.at - before.at) / 1000);

    const tag = randomBytes(4).toString('hex');
    const headers = (sequence: number) => ({ Authorization: keys[sequence % keys.length]!, 'Content-Type': 'application/json' });
    // Warm-up: every gateway answers WARMUP_CARDS cards before anything is measured, so what V8
    // compiles (and the connections, caches and pools each fills) is not charged to the windows:
    // a fresh gateway spends a few hundred ms of CPU on that, which over 8 s at a low rate is more
    // than its cards cost (and N gateways pay it N times).
    const warmups = ports.map((port, index) =>
      startClosedLoop({ url: `http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`, headers, body: (sequence) => JSON.stringify({ customTag: `W ${tag} ${index} #${sequence}` }), clients: WARMUP_CLIENTS, requestTimeoutMs: REQUEST_TIMEOUT_MS }),
    );
    const warmupUntil = performance.now() + WARMUP_LIMIT_MS;
    while (warmups.some((loop) => loop.samples.filter((sample) => sample.status === '200').length < WARMUP_CARDS) && performance.now() < warmupUntil) await sleep(250);
    await Promise.all(warmups.map((loop) => loop.stop()));

    // Fixed cost: no request at all, after the warm-up has settled.
    await sleep(SETTLE_MS);
    const idleBefore = await snap();
    await sleep(settings.idleSeconds * 1000);
    const idleAfter = await snap();
    const fixedAll = started.map((_, index) => perSecondMs(idleBefore, idleAfter, index));
    const fixed = fixedAll.slice(0, gateways);

    const windows: RateWindow[] = [];
    let last: { before: Snapshot; after: Snapshot; cards: number } | undefined;
    for (const rate of settings.rates) {
      const perGatewayRate = settings.perGateway ? rate : rate / gateways;
      // Split evenly over the gateways, as a load balancer would; every body distinct.
      const loops = ports.slice(0, gateways).map((port, index) =>
        startPacedLoop({
          url: `http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`,
          headers,
          body: (sequence) => JSON.stringify({ customTag: `D ${tag} ${rate} ${index} #${sequence}` }),
          requestsPerSecond: perGatewayRate,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
        }),
      );
      try {
        await sleep(WARMUP_MS);
        const before = await snap();
        await sleep(settings.windowSeconds * 1000);
        const after = await snap();
        const summaries = loops.map((loop) => summarizeWindow(loop.samples, before.at, after.at));
        const failures = summaries.flatMap((summary) => Object.entries(summary.failures));
        if (failures.length > 0) {
          const sample = started[0]!.output().split('\n').find((line) => /"status":(4|5)\d\d/.test(line));
          throw new Error(`${gateways} gateways, ${topology.shards} shards, ${rate} cards/s: failed requests ${JSON.stringify(failures)}; the first gateway logged: ${sample ?? 'nothing'}`);
        }
        const cards = summaries.reduce((sum, summary) => sum + summary.cards, 0);
        if (cards === 0) throw new Error('no card answered in the window');
        const seconds = (after.at - before.at) / 1000;
        const cardsPerSecond = cards / seconds;
        const gatewayMs = started.slice(0, gateways).map((_, index) => ((after.gateways[index]! - before.gateways[index]!) * 1000) / cards);
        const all = gatewayMs.reduce((sum, value) => sum + value, 0);
        const fixedSum = fixed.reduce((sum, value) => sum + value, 0);
        const latencies = loops.flatMap((loop) => loop.samples.filter((sample) => sample.finishedAt >= before.at && sample.finishedAt < after.at && sample.status === '200').map((sample) => sample.latencyMs));
        windows.push({
          offeredPerSecond: perGatewayRate * gateways,
          cardsPerSecond,
          p50Ms: percentile(latencies, 0.5),
          p95Ms: percentile(latencies, 0.95),
          gatewayMsPerCard: gatewayMs,
          allGatewaysMsPerCard: all,
          allGatewaysNetMsPerCard: all - fixedSum / cardsPerSecond,
          ...(settings.observer ? { observerMsPerCard: (perSecondMs(before, after, gateways) - fixedAll[gateways]!) / cardsPerSecond } : {}),
          loadAverage: loadavg()[0]!,
        });
        last = { before, after, cards };
      } finally {
        await Promise.all(loops.map((loop) => loop.stop()));
      }
    }
    const [low, high] = windows as [RateWindow, RateWindow];
    const { before, after, cards } = last!;
    const redisMs = after.redis.map((value, index) => ((value - before.redis[index]!) * 1000) / cards);
    const redisAll = redisMs.reduce((sum, value) => sum + value, 0);
    const deltas = after.commands.map((stats, index) => commandDelta(before.commands[index]!, stats, ['info', 'cluster|info', 'cluster|slots', 'cluster|nodes']));
    const byShard = deltas.map((delta) => delta.reduce((sum, entry) => sum + entry.calls, 0) / cards);
    const merged = new Map<string, number>();
    for (const delta of deltas) for (const entry of delta) merged.set(entry.command, (merged.get(entry.command) ?? 0) + entry.calls);
    const busiest = Math.max(...redisMs);
    return {
      round,
      gateways,
      shards: topology.shards,
      fixedMsPerSecond: fixed,
      ...(settings.observer ? { observerFixedMsPerSecond: fixedAll[gateways]! } : {}),
      windows: [low, high],
      marginalMsPerCard: (high.allGatewaysMsPerCard * high.cardsPerSecond - low.allGatewaysMsPerCard * low.cardsPerSecond) / (high.cardsPerSecond - low.cardsPerSecond),
      cards,
      cardsPerSecond: high.cardsPerSecond,
      gatewayMsPerCard: high.gatewayMsPerCard,
      allGatewaysMsPerCard: high.allGatewaysMsPerCard,
      redisMsPerCard: redisMs,
      redisShares: redisMs.map((value) => (redisAll > 0 ? value / redisAll : 0)),
      commandsPerCard: byShard.reduce((sum, value) => sum + value, 0),
      commandsPerCardByShard: byShard,
      topCommands: [...merged].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([command, calls]) => ({ command, perCard: calls / cards })),
      // Each master's ms are per card of the whole system (its CPU over every card drawn), so they
      // already are its share: the busiest one is at a full core when the system draws 1000 / its ms.
      impliedCeiling: busiest > 0 ? 1000 / busiest : Number.POSITIVE_INFINITY,
    };
  } finally {
    await Promise.all(started.map((gateway) => gateway.stop('SIGTERM')));
  }
}

/**
 * The system's scale (`pnpm bench --distributed`): N gateways, M no-op renderers
 * (`noop-renderer.ts`) and a Redis Cluster of S masters on loopback. Both clusters stay up for
 * the whole run; every (shards, gateways) pair is measured once a round, in an order that rotates
 * each round, each time with freshly started gateways: first with no load (each gateway's fixed CPU
 * per second), then at two offered rates (open loop, distinct cards), split evenly over the
 * gateways. The slope between the two rates is all gateways' CPU per card with the fixed work per
 * second taken out, the figure compared between gateway counts. Gateways are pinned to core 0,
 * everything else to core 1 (with taskset). CPU comes from /proc (each gateway process, each
 * master's main thread), commands from every master's `INFO commandstats`.
 */
export async function benchDistributed(settings: DistributedSettings, progress: (line: string) => void): Promise<DistributedMeasurement[]> {
  pin(process.pid, OTHERS_CORE);
  const s3 = await startS3Server({});
  const topologies: Topology[] = [];
  try {
    for (const shards of settings.shardCounts) topologies.push(await startTopology(shards, settings.renderers, s3));
    const pairs = topologies.flatMap((topology) => settings.gatewayCounts.map((gateways) => ({ topology, gateways })));
    const measurements: DistributedMeasurement[] = [];
    for (let round = 1; round <= settings.rounds; round += 1) {
      const shift = (round - 1) % pairs.length;
      const order = round % 2 === 0 ? [...pairs.slice(shift), ...pairs.slice(0, shift)].reverse() : [...pairs.slice(shift), ...pairs.slice(0, shift)];
      for (const { topology, gateways } of order) {
        const result = await measure(topology, gateways, settings, round);
        measurements.push(result);
        const [low, high] = result.windows;
        progress(
          `distributed: round ${round}, ${gateways} gateway(s), ${topology.shards} shard(s): fixed ${result.fixedMsPerSecond.map((value) => value.toFixed(1)).join('/')} ms/s${result.observerFixedMsPerSecond === undefined ? '' : ` (observer ${result.observerFixedMsPerSecond.toFixed(1)})`}; ` +
            `${low.cardsPerSecond.toFixed(0)} and ${high.cardsPerSecond.toFixed(0)} cards/s: all gateways ${low.allGatewaysMsPerCard.toFixed(2)} and ${high.allGatewaysMsPerCard.toFixed(2)} ms/card, marginal ${result.marginalMsPerCard.toFixed(2)}` +
            `${high.observerMsPerCard === undefined ? '' : `, observer ${high.observerMsPerCard.toFixed(3)} ms per system card`}; ` +
            `Redis ${result.redisMsPerCard.map((value) => value.toFixed(3)).join('/')} ms/card (shares ${result.redisShares.map((value) => (value * 100).toFixed(0)).join('/')} %), ${result.commandsPerCard.toFixed(1)} commands/card, ceiling ${result.impliedCeiling.toFixed(0)} cards/s; load ${high.loadAverage.toFixed(1)}`,
        );
      }
    }
    return measurements;
  } finally {
    for (const topology of topologies) {
      await Promise.all(topology.renderers.map((renderer) => renderer.stop('SIGTERM')));
      await topology.cluster.stop();
    }
    await s3.stop();
  }
}

/**
 * Whether the system answered at least 90 % of both offered rates: a window that fell behind (a
 * neighbour took the cores) measures the scheduler, not the cost of a card, and is left out.
 */
export const keptUp = (run: DistributedMeasurement): boolean => run.windows.every((window) => window.cardsPerSecond >= KEPT_UP_SHARE * window.offeredPerSecond);
const KEPT_UP_SHARE = 0.9;

const spread = (values: number[], digits: number) => (values.length === 1 ? values[0]!.toFixed(digits) : `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`);

/**
 * Medians (with min-max) per (shards, gateways) over the rounds, as markdown, and the two verdicts:
 * all gateways' marginal CPU per card at the most gateways within 15 % of the fewest (per shard
 * count, medians), and each master's share of Redis CPU within 20 % of an even share.
 */
export function distributedReport(all: readonly DistributedMeasurement[]): string {
  const measurements = all.filter(keptUp);
  const groups = new Map<string, DistributedMeasurement[]>();
  for (const measurement of measurements) {
    const key = `${measurement.shards}/${measurement.gateways}`;
    groups.set(key, [...(groups.get(key) ?? []), measurement]);
  }
  const sorted = [...groups].sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }));
  const lines = [
    '| shards | gateways | cards/s (low / high rate) | fixed CPU ms/s per gateway | all gateways ms/card, low rate | all gateways ms/card, high rate | **marginal ms/card, all gateways** | all gateways net of fixed, high rate | Redis ms/card per master | Redis share per master | commands/card | ceiling cards/s |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const [, runs] of sorted) {
    const first = runs[0]!;
    const perMaster = first.redisMsPerCard.map((_, index) => median(runs.map((run) => run.redisMsPerCard[index]!)).toFixed(3)).join(' / ');
    const shares = first.redisShares.map((_, index) => `${(median(runs.map((run) => run.redisShares[index]!)) * 100).toFixed(0)}`).join(' / ');
    lines.push(
      `| ${first.shards} | ${first.gateways} | ${median(runs.map((run) => run.windows[0].cardsPerSecond)).toFixed(0)} / ${median(runs.map((run) => run.windows[1].cardsPerSecond)).toFixed(0)} | ${spread(runs.flatMap((run) => run.fixedMsPerSecond), 1)} | ${spread(runs.map((run) => run.windows[0].allGatewaysMsPerCard), 2)} | ${spread(runs.map((run) => run.windows[1].allGatewaysMsPerCard), 2)} | ${spread(runs.map((run) => run.marginalMsPerCard), 2)} | ${spread(runs.map((run) => run.windows[1].allGatewaysNetMsPerCard), 2)} | ${perMaster} | ${shares} % | ${spread(runs.map((run) => run.commandsPerCard), 1)} | ${spread(runs.map((run) => run.impliedCeiling), 0)} |`,
    );
  }
  const observed = measurements.filter((run) => run.windows[1].observerMsPerCard !== undefined);
  if (observed.length > 0) lines.push('', `Observer gateway (takes no requests): fixed ${spread(observed.map((run) => run.observerFixedMsPerSecond!), 1)} ms/s; above that, ${spread(observed.map((run) => run.windows[1].observerMsPerCard!), 3)} ms per card drawn by the others.`);
  const verdicts: string[] = [];
  for (const shards of new Set(measurements.map((run) => run.shards))) {
    const counts = [...new Set(measurements.filter((run) => run.shards === shards).map((run) => run.gateways))].sort((a, b) => a - b);
    if (counts.length > 1) {
      const marginal = (gateways: number) => median(measurements.filter((run) => run.shards === shards && run.gateways === gateways).map((run) => run.marginalMsPerCard));
      const base = marginal(counts[0]!);
      const worst = Math.max(...counts.map((gateways) => Math.abs(marginal(gateways) / base - 1)));
      verdicts.push(`${shards} shard(s): marginal CPU per card from ${counts[0]} to ${counts.at(-1)} gateways ${counts.map((gateways) => marginal(gateways).toFixed(2)).join(' → ')} ms, at most ${(worst * 100).toFixed(0)} % from ${counts[0]}: ${worst <= 0.15 ? 'PASS' : 'MISS'} (flat within 15 %)`);
    }
    if (shards > 1) {
      const even = 1 / shards;
      const shares = measurements.filter((run) => run.shards === shards).flatMap((run) => run.redisShares);
      const off = Math.max(...shares.map((share) => Math.abs(share / even - 1)));
      verdicts.push(`${shards} shard(s): each master's share of Redis CPU ${(Math.min(...shares) * 100).toFixed(0)}–${(Math.max(...shares) * 100).toFixed(0)} % over every window, at most ${(off * 100).toFixed(0)} % from ${(even * 100).toFixed(1)} %: ${off <= 0.2 ? 'PASS' : 'MISS'} (within 20 %)`);
    }
  }
  const behind = all.filter((run) => !keptUp(run));
  if (behind.length > 0) verdicts.push(`left out, answered under ${KEPT_UP_SHARE * 100} % of an offered rate: ${behind.map((run) => `round ${run.round} ${run.shards} shard(s) ${run.gateways} gateway(s) (${run.windows.map((window) => `${window.cardsPerSecond.toFixed(0)} of ${window.offeredPerSecond.toFixed(0)}`).join(', ')} cards/s)`).join('; ')}`);
  if (verdicts.length > 0) lines.push('', ...verdicts.map((verdict) => `- ${verdict}`));
  const last = measurements.at(-1);
  if (last) lines.push('', `Most called (last window): ${last.topCommands.map((entry) => `${entry.command} ${entry.perCard.toFixed(2)}`).join(', ')}`);
  return lines.join('\n');
}
