import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freeLoopbackPort, GATEWAY_ENTRY, startLocalStack, type LocalStack } from '../local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../local-stack/service-process.ts';
import { createRendererGroups, type RendererGroups, type ThrottleStats } from './cpu-cgroups.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { cpuSeconds, mainThreadCpuSeconds } from './proc-stats.ts';
import { RANK, USER_ID } from './profile-image.ts';
import { commandDelta, parseCommandStats, type CommandCount } from './redis-stats.ts';
import type { ScaleSettings } from './scale-settings.ts';
import { startClosedLoop, summarizeWindow, type WindowSummary } from './window-load.ts';

export interface ScaleMeasurement {
  round: number;
  renderers: number;
  clients: number;
  window: WindowSummary;
  /** Cards each renderer logged as rendered inside the window: how evenly the queue spread them. */
  cardsByRenderer: number[];
  /** CPU seconds per card of the gateway process (all threads) and of its event-loop thread alone. */
  gateway: { cpuPerCard: number; mainThreadPerCard: number; cores: number };
  /** Redis: commands and CPU per card; the most called commands. */
  redis: { commandsPerCard: number; cpuPerCard: number; mainThreadPerCard: number; topCommands: { command: string; perCard: number }[] };
  /** The renderers' cgroups: CPU per card, the share of their quota used, and how often CFS throttled them. */
  renderersCpu: { cpuPerCard: number; quotaUsed: number; throttledPeriodShare: number };
  /** This process: the load loop and the S3 stand-in (s3rver runs in it). */
  benchProcessCpuPerCard: number;
  /**
   * The fan-out run only: a second gateway taking no requests, on the same Redis. Its CPU per card
   * is what every further gateway pays for each card of the whole system (its QueueEvents reads
   * every job's events), the part of the gateway's cost that more gateways do not divide.
   */
  idleGateway?: { cpuPerCard: number; mainThreadPerCard: number; quietMainThreadPerSecond: number };
}

interface Snapshot {
  at: number;
  gateway: number;
  gatewayMain: number;
  redis: number;
  redisMain: number;
  commands: Map<string, CommandCount>;
  groups: { cpu: number; throttling: ThrottleStats }[];
  bench: number;
  renderedByRenderer: number[];
  idleGateway?: { cpu: number; main: number };
}

const RENDERED_LINE = /"msg":"card rendered"/g;
const renderedCount = (output: string) => output.match(RENDERED_LINE)?.length ?? 0;

const must = (value: number | undefined, what: string): number => {
  if (value === undefined || Number.isNaN(value)) throw new Error(`could not read ${what} from /proc`);
  return value;
};

async function snapshot(stack: LocalStack, redis: Redis, groups: RendererGroups, renderers: number, idleGateway: ServiceProcess | undefined): Promise<Snapshot> {
  const own = process.cpuUsage();
  const commands = parseCommandStats(await redis.info('commandstats'));
  return {
    at: performance.now(),
    gateway: must(cpuSeconds(stack.gateway.child.pid), 'the gateway CPU time'),
    gatewayMain: must(mainThreadCpuSeconds(stack.gateway.child.pid), 'the gateway main-thread CPU time'),
    redis: must(cpuSeconds(stack.redis.child.pid), 'the Redis CPU time'),
    redisMain: must(mainThreadCpuSeconds(stack.redis.child.pid), 'the Redis main-thread CPU time'),
    commands,
    groups: groups.groups.slice(0, renderers).map((group) => ({ cpu: group.cpuSeconds(), throttling: group.throttling() })),
    bench: (own.user + own.system) / 1e6,
    renderedByRenderer: stack.renderers.map((renderer) => renderedCount(renderer.output())),
    ...(idleGateway && {
      idleGateway: { cpu: must(cpuSeconds(idleGateway.child.pid), 'the idle gateway CPU time'), main: must(mainThreadCpuSeconds(idleGateway.child.pid), 'the idle gateway main-thread CPU time') },
    }),
  };
}

function compare(
  before: Snapshot,
  after: Snapshot,
  window: WindowSummary,
  settings: ScaleSettings,
  quiet: { cpuPerSecond: number; mainThreadPerSecond: number } | undefined,
): Omit<ScaleMeasurement, 'round' | 'renderers' | 'clients' | 'window'> {
  const cards = window.cards;
  const seconds = (after.at - before.at) / 1000;
  const commands = commandDelta(before.commands, after.commands);
  const totalCalls = commands.reduce((sum, entry) => sum + entry.calls, 0);
  const groupCpu = after.groups.map((group, index) => group.cpu - before.groups[index]!.cpu);
  const periods = after.groups.reduce((sum, group, index) => sum + group.throttling.periods - before.groups[index]!.throttling.periods, 0);
  const throttled = after.groups.reduce((sum, group, index) => sum + group.throttling.throttledPeriods - before.groups[index]!.throttling.throttledPeriods, 0);
  return {
    cardsByRenderer: after.renderedByRenderer.map((count, index) => count - (before.renderedByRenderer[index] ?? 0)),
    gateway: { cpuPerCard: (after.gateway - before.gateway) / cards, mainThreadPerCard: (after.gatewayMain - before.gatewayMain) / cards, cores: (after.gateway - before.gateway) / seconds },
    redis: {
      commandsPerCard: totalCalls / cards,
      cpuPerCard: (after.redis - before.redis) / cards,
      mainThreadPerCard: (after.redisMain - before.redisMain) / cards,
      topCommands: commands.slice(0, 8).map((entry) => ({ command: entry.command, perCard: entry.calls / cards })),
    },
    renderersCpu: {
      cpuPerCard: groupCpu.reduce((sum, value) => sum + value, 0) / cards,
      quotaUsed: groupCpu.reduce((sum, value) => sum + value, 0) / (groupCpu.length * settings.cpus * seconds),
      throttledPeriodShare: periods === 0 ? 0 : throttled / periods,
    },
    benchProcessCpuPerCard: (after.bench - before.bench) / cards,
    ...(before.idleGateway &&
      after.idleGateway &&
      quiet && {
        // What the idle gateway spends anyway (timers, blocking reads) is not a cost of the cards.
        idleGateway: {
          cpuPerCard: (after.idleGateway.cpu - before.idleGateway.cpu - quiet.cpuPerSecond * seconds) / cards,
          mainThreadPerCard: (after.idleGateway.main - before.idleGateway.main - quiet.mainThreadPerSecond * seconds) / cards,
          quietMainThreadPerSecond: quiet.mainThreadPerSecond,
        },
      }),
  };
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

/** The gateway's settings: rate limits on (every request pays for its Redis counter) with budgets no run uses up. */
const GATEWAY_ENV = { LOG_LEVEL: 'info', RATE_LIMIT_DEFAULT: '999999999/60s', RATE_LIMIT_PROFILE_IMAGE: '999999999/60s', CARDS_IN_FLIGHT_PER_KEY: '10000' };
/** How long the idle second gateway's own CPU use is measured before any card is asked for. */
const QUIET_SECONDS = 8;
/** Time a request may take: queueing behind the clients ahead of it included. */
const REQUEST_TIMEOUT_MS = 30_000;

async function measureOnce(
  run: { renderers: number; round: number; withIdleGateway: boolean },
  groups: RendererGroups,
  settings: ScaleSettings,
  track: (stop: (() => Promise<void>) | undefined) => void,
  progress: (line: string) => void,
): Promise<ScaleMeasurement> {
  const { renderers, round } = run;
  const groupByName = new Map(groups.groups.map((group, index) => [`renderer-${index + 1}`, group]));
  const stack = await startLocalStack({
    gatewayPort: await freeLoopbackPort(),
    renderers,
    apiKeys: BENCH_API_KEY,
    // One render worker per renderer by default: the default (one per core) counts the host's
    // cores, not the quota, and a quarter of a CPU has no room for two.
    env: { ...GATEWAY_ENV, RENDER_WORKERS: String(settings.renderWorkers), RENDER_CONCURRENCY: String(settings.rendererConcurrency) },
    rendererCommandPrefix: (name) => {
      const group = groupByName.get(name);
      if (!group) throw new Error(`no cgroup made for ${name}`);
      return group.commandPrefix;
    },
  });
  let idleGateway: ServiceProcess | undefined;
  let quiet: { cpuPerSecond: number; mainThreadPerSecond: number } | undefined;
  // One stop, whoever asks first (the end of the run or a signal); a second stop() of the stack would fail.
  let stopping: Promise<void> | undefined;
  const stopStack = () => (stopping ??= Promise.all([idleGateway?.stop(), stack.stop()]).then(() => undefined));
  track(stopStack);
  const redis = new Redis(stack.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    if (run.withIdleGateway) {
      idleGateway = startServiceProcess({
        name: 'idle gateway',
        entry: GATEWAY_ENTRY,
        env: { ...stack.serviceEnv, PORT: String(await freeLoopbackPort()), HOST: '127.0.0.1', API_KEYS: BENCH_API_KEY },
      });
      await idleGateway.waitFor(/gateway listening/, 60_000);
      // Its CPU with no cards at all, over a quiet spell (/proc counts in 10 ms ticks: seconds, not less).
      const pid = idleGateway.child.pid;
      const quietStart = { at: performance.now(), cpu: must(cpuSeconds(pid), 'the idle gateway CPU time'), main: must(mainThreadCpuSeconds(pid), 'the idle gateway main-thread CPU time') };
      await sleep(QUIET_SECONDS * 1000);
      const quietSeconds = (performance.now() - quietStart.at) / 1000;
      quiet = {
        cpuPerSecond: (must(cpuSeconds(pid), 'the idle gateway CPU time') - quietStart.cpu) / quietSeconds,
        mainThreadPerSecond: (must(mainThreadCpuSeconds(pid), 'the idle gateway main-thread CPU time') - quietStart.main) / quietSeconds,
      };
    }
    const clients = renderers * settings.clientsPerRenderer;
    // A fresh tag per run and a number per request: no two bodies alike, so no render is shared or cached.
    const tag = randomBytes(4).toString('hex');
    const loop = startClosedLoop({
      url: `${stack.gatewayUrl}/v1/profile-image?userId=${USER_ID}`,
      headers: { Authorization: BENCH_API_KEY, 'Content-Type': 'application/json' },
      body: (sequence) => JSON.stringify({ customTag: `Scale ${tag} #${sequence}`, presenceStatus: 'online', rankData: RANK }),
      clients,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    let stopped = false;
    try {
      // Warm-up: the fixed time, and until every renderer has drawn a few cards (JIT, fonts, caches warm).
      const warmupEnds = Date.now() + settings.warmupSeconds * 1000;
      await waitUntil(() => Date.now() >= warmupEnds && stack.renderers.every((renderer) => renderedCount(renderer.output()) >= 5), 120_000, 'the renderers did not all draw 5 cards');
      const before = await snapshot(stack, redis, groups, renderers, idleGateway);
      await sleep(settings.windowSeconds * 1000);
      const after = await snapshot(stack, redis, groups, renderers, idleGateway);
      const window = summarizeWindow(loop.samples, before.at, after.at);
      await loop.stop();
      stopped = true;
      const failed = Object.entries(window.failures);
      if (failed.length > 0) throw new Error(`${renderers} renderers: failed requests in the window: ${JSON.stringify(window.failures)}`);
      if (window.reused > 0) throw new Error(`${renderers} renderers: ${window.reused} answers reused another render; the bodies were meant to be distinct`);
      if (window.cards === 0) throw new Error(`${renderers} renderers: no card answered in the window`);
      const measurement: ScaleMeasurement = { round, renderers, clients, window, ...compare(before, after, window, settings, quiet) };
      progress(
        `scale: ${run.withIdleGateway ? 'fan-out run with an idle second gateway' : `round ${round}`}, ${renderers} renderer(s), ${clients} clients: ${window.cardsPerSecond.toFixed(2)} cards/s, p50 ${window.p50Ms.toFixed(0)} ms, p95 ${window.p95Ms.toFixed(0)} ms; ` +
          `quota used ${(measurement.renderersCpu.quotaUsed * 100).toFixed(0)}%, gateway ${(measurement.gateway.cpuPerCard * 1000).toFixed(1)} ms CPU/card, ` +
          `Redis ${measurement.redis.commandsPerCard.toFixed(1)} commands/card; cards by renderer ${measurement.cardsByRenderer.join('/')}` +
          (measurement.idleGateway ? `; idle gateway ${(measurement.idleGateway.cpuPerCard * 1000).toFixed(2)} ms CPU/card` : ''),
      );
      return measurement;
    } finally {
      if (!stopped) await loop.stop();
    }
  } finally {
    redis.disconnect();
    await stopStack();
    track(undefined);
  }
}

/**
 * Renderer scaling under CPU quotas (`pnpm bench --scale`): for each renderer count, a fresh
 * `./run stack` topology whose renderers each run in a cgroup limited to `cpus`, fed by closed-loop
 * clients with distinct cards; after a warm-up, a fixed window measures cards/s and latency, and
 * /proc, cgroup and Redis counters give the gateway's, Redis's and the renderers' cost per card.
 * The cgroups are removed at the end, on failure and on SIGINT/SIGTERM.
 */
export async function benchRendererScaling(settings: ScaleSettings, progress: (line: string) => void): Promise<ScaleMeasurement[]> {
  const groups = createRendererGroups(Math.max(...settings.rendererCounts), settings.cpus);
  let stopCurrent: (() => Promise<void>) | undefined;
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress(`scale: ${signal}: stopping the stack and removing the cgroups`);
    void (stopCurrent?.() ?? Promise.resolve())
      .catch(() => {})
      .finally(() => {
        groups.remove();
        process.exit(130);
      });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const measurements: ScaleMeasurement[] = [];
    const track = (stop: (() => Promise<void>) | undefined) => (stopCurrent = stop);
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const renderers of settings.rendererCounts) measurements.push(await measureOnce({ renderers, round, withIdleGateway: false }, groups, settings, track, progress));
    }
    // Once more with the most renderers and a second gateway that takes no requests: what a gateway pays for cards it does not serve.
    const fanOut = await measureOnce({ renderers: Math.max(...settings.rendererCounts), round: settings.rounds + 1, withIdleGateway: true }, groups, settings, track, progress);
    return [...measurements, fanOut];
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    groups.remove();
  }
}
