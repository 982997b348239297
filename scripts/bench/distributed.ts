import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisCluster, type RunningCluster } from '../../tests/cluster/redis-cluster.ts';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { startS3Server, type RunningS3 } from '../local-stack/s3-server.ts';
import { startServiceProcess, type ServiceProcess } from '../local-stack/service-process.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { cpuSeconds, mainThreadCpuSeconds } from './proc-stats.ts';
import { USER_ID } from './profile-image.ts';
import { commandDelta, parseCommandStats, type CommandCount } from './redis-stats.ts';
import { median } from './stats.ts';
import { startClosedLoop, summarizeWindow } from './window-load.ts';

/** `pnpm bench --distributed [--gateways=1,2,4] [--shards=1,3] [--renderers=2] [--rounds=3] [--window=8] [--clients=24]`. */
export interface DistributedSettings {
  gatewayCounts: number[];
  shardCounts: number[];
  renderers: number;
  rounds: number;
  windowSeconds: number;
  clients: number;
}

const listArgument = (argv: readonly string[], name: string, fallback: number[]): number[] => {
  const given = argv.find((argument) => argument.startsWith(`--${name}=`));
  if (given === undefined) return fallback;
  const values = given.slice(name.length + 3).split(',').map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1 || value > 16)) throw new Error(`--${name} takes whole numbers from 1 to 16, comma separated`);
  return values;
};

/** Closed-loop clients: up to 1024, so a run can reach the rates where per-second costs fade. */
function clientsArgument(argv: readonly string[]): number {
  const given = argv.find((argument) => argument.startsWith('--clients='));
  if (given === undefined) return 24;
  const clients = Number(given.slice('--clients='.length));
  if (!Number.isInteger(clients) || clients < 1 || clients > 1024) throw new Error('--clients takes a whole number from 1 to 1024');
  return clients;
}

export function distributedSettingsFromArgs(argv: readonly string[]): DistributedSettings {
  const one = (name: string, fallback: number) => listArgument(argv, name, [fallback])[0]!;
  return {
    gatewayCounts: listArgument(argv, 'gateways', [1, 2, 4]),
    shardCounts: listArgument(argv, 'shards', [1, 3]),
    renderers: one('renderers', 2),
    rounds: one('rounds', 3),
    windowSeconds: one('window', 8),
    clients: clientsArgument(argv),
  };
}

export interface DistributedMeasurement {
  round: number;
  gateways: number;
  shards: number;
  cards: number;
  cardsPerSecond: number;
  /** CPU ms per card of each gateway (all threads), and of all of them together. */
  gatewayMsPerCard: number[];
  allGatewaysMsPerCard: number;
  /** Redis main-thread CPU ms per card on each master, and commands per card on each. */
  redisMsPerCard: number[];
  commandsPerCard: number;
  commandsPerCardByShard: number[];
  topCommands: { command: string; perCard: number }[];
  /** The system's cards/s when its busiest master is at one full core (1000 / that master's ms per card). */
  impliedCeiling: number;
}

/** Gateways with rate limits and quotas on (each request pays for its counters) and budgets no run uses up. */
const GATEWAY_ENV = { LOG_LEVEL: 'info', PLANS: 'bench:cards=1000000000,requests=1000000000', RATE_LIMIT_DEFAULT: '999999999/60s', RATE_LIMIT_PROFILE_IMAGE: '999999999/60s', CARDS_IN_FLIGHT_PER_KEY: '10000' };
const WARMUP_MS = 3000;
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

async function measure(topology: Topology, gateways: number, settings: DistributedSettings, round: number): Promise<DistributedMeasurement> {
  const started: ServiceProcess[] = [];
  const ports: number[] = [];
  try {
    for (let index = 0; index < gateways; index += 1) {
      const port = await freeLoopbackPort();
      ports.push(port);
      started.push(startServiceProcess({ name: `gateway-${index + 1}`, entry: GATEWAY_ENTRY, env: { ...topology.env, ...GATEWAY_ENV, PORT: String(port), HOST: '127.0.0.1', API_KEYS: BENCH_API_KEY } }));
    }
    await Promise.all(started.map((gateway) => gateway.waitFor(/gateway listening/, 60_000)));
    const tag = randomBytes(4).toString('hex');
    // The clients split evenly over the gateways, as a load balancer would; every body distinct.
    const loops = ports.map((port, index) =>
      startClosedLoop({
        url: `http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`,
        headers: { Authorization: BENCH_API_KEY, 'Content-Type': 'application/json' },
        body: (sequence) => JSON.stringify({ customTag: `D ${tag} ${index} #${sequence}` }),
        clients: Math.max(1, Math.round(settings.clients / gateways)),
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
      }),
    );
    try {
      await sleep(WARMUP_MS);
      const snap = async () => ({
        at: performance.now(),
        gateways: started.map((gateway) => must(cpuSeconds(gateway.child.pid), 'a gateway CPU time')),
        redis: topology.masters.map((master) => must(mainThreadCpuSeconds(master.pid), 'a Redis CPU time')),
        commands: await Promise.all(topology.masters.map((master) => commandStats(master.port))),
      });
      const before = await snap();
      await sleep(settings.windowSeconds * 1000);
      const after = await snap();
      const windows = loops.map((loop) => summarizeWindow(loop.samples, before.at, after.at));
      const failures = windows.flatMap((window) => Object.entries(window.failures));
      if (failures.length > 0) {
        const sample = started[0]!.output().split('\n').find((line) => /"status":(4|5)\d\d/.test(line));
        throw new Error(`${gateways} gateways, ${topology.shards} shards: failed requests ${JSON.stringify(failures)}; the first gateway logged: ${sample ?? 'nothing'}`);
      }
      const cards = windows.reduce((sum, window) => sum + window.cards, 0);
      if (cards === 0) throw new Error('no card answered in the window');
      const gatewayMs = after.gateways.map((value, index) => ((value - before.gateways[index]!) * 1000) / cards);
      const redisMs = after.redis.map((value, index) => ((value - before.redis[index]!) * 1000) / cards);
      const deltas = after.commands.map((stats, index) => commandDelta(before.commands[index]!, stats, ['info', 'cluster|info', 'cluster|slots', 'cluster|nodes']));
      const byShard = deltas.map((delta) => delta.reduce((sum, entry) => sum + entry.calls, 0) / cards);
      const merged = new Map<string, number>();
      for (const delta of deltas) for (const entry of delta) merged.set(entry.command, (merged.get(entry.command) ?? 0) + entry.calls);
      const busiest = Math.max(...redisMs);
      return {
        round,
        gateways,
        shards: topology.shards,
        cards,
        cardsPerSecond: cards / ((after.at - before.at) / 1000),
        gatewayMsPerCard: gatewayMs,
        allGatewaysMsPerCard: gatewayMs.reduce((sum, value) => sum + value, 0),
        redisMsPerCard: redisMs,
        commandsPerCard: byShard.reduce((sum, value) => sum + value, 0),
        commandsPerCardByShard: byShard,
        topCommands: [...merged].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([command, calls]) => ({ command, perCard: calls / cards })),
        // Each master's ms are per card of the whole system (its CPU over every card drawn), so they
        // already are its share: the busiest one is at a full core when the system draws 1000 / its ms.
        impliedCeiling: busiest > 0 ? 1000 / busiest : Number.POSITIVE_INFINITY,
      };
    } finally {
      await Promise.all(loops.map((loop) => loop.stop()));
    }
  } finally {
    await Promise.all(started.map((gateway) => gateway.stop('SIGTERM')));
  }
}

/**
 * The system's scale (`pnpm bench --distributed`): N gateways, M no-op renderers
 * (`noop-renderer.ts`) and a Redis Cluster of S masters on loopback. Both clusters stay up for
 * the whole run; every (shards, gateways) pair is measured once a round, in an order that rotates
 * each round, each time with freshly started gateways fed by closed-loop clients with distinct
 * cards. CPU comes from /proc (each gateway process, each master's main thread), commands from
 * every master's `INFO commandstats`.
 */
export async function benchDistributed(settings: DistributedSettings, progress: (line: string) => void): Promise<DistributedMeasurement[]> {
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
        progress(
          `distributed: round ${round}, ${gateways} gateway(s), ${topology.shards} shard(s): ${result.cardsPerSecond.toFixed(0)} cards/s, gateways ${result.gatewayMsPerCard.map((value) => value.toFixed(2)).join('/')} ms/card (all ${result.allGatewaysMsPerCard.toFixed(2)}), ` +
            `Redis ${result.redisMsPerCard.map((value) => value.toFixed(3)).join('/')} ms/card, ${result.commandsPerCard.toFixed(1)} commands/card (${result.commandsPerCardByShard.map((value) => value.toFixed(1)).join('/')}), ceiling ${result.impliedCeiling.toFixed(0)} cards/s`,
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

/** Medians (with min-max) per (shards, gateways) over the rounds, as markdown. */
export function distributedReport(measurements: readonly DistributedMeasurement[]): string {
  const groups = new Map<string, DistributedMeasurement[]>();
  for (const measurement of measurements) {
    const key = `${measurement.shards}/${measurement.gateways}`;
    groups.set(key, [...(groups.get(key) ?? []), measurement]);
  }
  const spread = (values: number[], digits: number) => `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  const lines = [
    '| shards | gateways | cards/s | each gateway CPU ms/card | all gateways CPU ms/card | Redis ms/card per master | commands/card | implied ceiling cards/s |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const [, runs] of [...groups].sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))) {
    const first = runs[0]!;
    const perMaster = first.redisMsPerCard.map((_, index) => median(runs.map((run) => run.redisMsPerCard[index]!)).toFixed(3)).join(' / ');
    lines.push(
      `| ${first.shards} | ${first.gateways} | ${spread(runs.map((run) => run.cardsPerSecond), 0)} | ${spread(runs.flatMap((run) => run.gatewayMsPerCard), 2)} | ${spread(runs.map((run) => run.allGatewaysMsPerCard), 2)} | ${perMaster} | ${spread(runs.map((run) => run.commandsPerCard), 1)} | ${spread(runs.map((run) => run.impliedCeiling), 0)} |`,
    );
  }
  const last = measurements.at(-1);
  if (last) lines.push('', `Most called (last window): ${last.topCommands.map((entry) => `${entry.command} ${entry.perCard.toFixed(2)}`).join(', ')}`);
  return lines.join('\n');
}
