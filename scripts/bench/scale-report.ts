import type { ScaleMeasurement } from './renderer-scaling.ts';
import type { ScaleSettings } from './scale-settings.ts';
import { median } from './stats.ts';

/** Issue 16: cards/s with N quota'd renderers over the cards/s of one. */
export const SCALE_TARGETS: Readonly<Record<number, number>> = { 2: 1.8, 4: 3.4 };
/**
 * A single-threaded loop (the gateway's event loop, Redis's command loop) is planned at this share
 * of one core: above it, queueing delay grows fast and bursts have no room.
 */
export const PLANNING_UTILIZATION = 0.7;

export interface ScaleRow {
  renderers: number;
  runs: number;
  cardsPerSecond: { median: number; min: number; max: number };
  /** Each round's cards/s over the same round's base count, then the median (and spread) of those. */
  ratio: { median: number; min: number; max: number } | undefined;
  p50Ms: number;
  p95Ms: number;
  quotaUsed: number;
  gatewayCpuMsPerCard: number;
  redisCommandsPerCard: number;
}

const spreadOf = (values: readonly number[]) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

/** One row per renderer count; ratios against the first count of `counts` (the base). */
export function scaleRows(all: readonly ScaleMeasurement[], counts: readonly number[]): ScaleRow[] {
  const measurements = all.filter((entry) => entry.idleGateway === undefined);
  const base = counts[0];
  const baseByRound = new Map(measurements.filter((entry) => entry.renderers === base).map((entry) => [entry.round, entry.window.cardsPerSecond]));
  return counts.flatMap((renderers) => {
    const runs = measurements.filter((entry) => entry.renderers === renderers);
    if (runs.length === 0) return [];
    const ratios = runs.flatMap((entry) => {
      const baseRate = baseByRound.get(entry.round);
      return baseRate === undefined || baseRate === 0 ? [] : [entry.window.cardsPerSecond / baseRate];
    });
    return [
      {
        renderers,
        runs: runs.length,
        cardsPerSecond: spreadOf(runs.map((entry) => entry.window.cardsPerSecond)),
        ratio: ratios.length === 0 ? undefined : spreadOf(ratios),
        p50Ms: median(runs.map((entry) => entry.window.p50Ms)),
        p95Ms: median(runs.map((entry) => entry.window.p95Ms)),
        quotaUsed: median(runs.map((entry) => entry.renderersCpu.quotaUsed)),
        gatewayCpuMsPerCard: median(runs.map((entry) => entry.gateway.cpuPerCard * 1000)),
        redisCommandsPerCard: median(runs.map((entry) => entry.redis.commandsPerCard)),
      },
    ];
  });
}

export interface ScaleCheck {
  target: string;
  measured: string;
  pass: boolean;
}

/** PASS/FAIL per target on the median ratio; a count not measured is not checked, nor any without one renderer as the base. */
export function checkScaleTargets(rows: readonly ScaleRow[]): ScaleCheck[] {
  if (rows[0]?.renderers !== 1) return [];
  return rows.slice(1).flatMap((row) => {
    const target = SCALE_TARGETS[row.renderers];
    if (target === undefined || row.ratio === undefined) return [];
    return [
      {
        target: `${row.renderers} renderers ≥ ${target} × the cards/s of 1`,
        measured: `${row.ratio.median.toFixed(2)} × median (${row.ratio.min.toFixed(2)}–${row.ratio.max.toFixed(2)} over ${row.runs} runs)`,
        pass: row.ratio.median >= target,
      },
    ];
  });
}

export interface CapacityModel {
  cpusPerRenderer: number;
  /** Cards/s one quota'd renderer gives (median over all runs of cards/s per renderer). */
  cardsPerSecondPerRenderer: number;
  /** The renderer count of the runs the costs per card come from (the busiest). */
  costsFromRenderers: number;
  gateway: { cpuMsPerCard: number; mainThreadMsPerCard: number; cardsPerSecond: number; renderers: number };
  redis: { commandsPerCard: number; cpuMsPerCard: number; mainThreadMsPerCard: number; cardsPerSecond: number; renderers: number };
  /**
   * From the run with an idle second gateway: what each gateway's event loop spends per card of
   * the whole system (`fanOutMsPerCard`), so that G gateways carry at most
   * PLANNING_UTILIZATION / ((eventLoop − fanOut) / G + fanOut) cards/s, never more than
   * `ceilingCardsPerSecond`; and the Redis CPU per card one more gateway adds.
   */
  gateways?: { fanOutMsPerCard: number; quietMsPerSecond: number; ceilingCardsPerSecond: number; cardsPerSecondWith: Record<number, number>; redisCpuMsPerCard: { withSecondGateway: number; without: number } };
}

/** Cards/s that `gateways` gateways carry when each pays `fanOut` s per card of all and `own − fanOut` per card it serves. */
export function gatewaysCardsPerSecond(gateways: number, ownPerCard: number, fanOutPerCard: number): number {
  return PLANNING_UTILIZATION / ((ownPerCard - fanOutPerCard) / gateways + fanOutPerCard);
}

/** Whole renderers that fit; a quotient a rounding error short of a whole number counts as it. */
const wholeRenderers = (fraction: number) => Math.floor(fraction + 1e-9);

/**
 * How many renderers one gateway process and one Redis can feed. Each is bounded by one thread
 * (Node's event loop, Redis's command loop), so its cards/s is PLANNING_UTILIZATION of a core
 * over that thread's CPU per card; divided by what one renderer draws per second. Costs per card
 * are those of the busiest runs (the most renderers): part of each process's CPU is fixed per
 * second (timers, blocking reads, the stalled-job checks), so the cost per card falls as cards/s
 * rise, and the busiest runs are the closest (and still a cautious) estimate of higher loads.
 */
export function capacityModel(all: readonly ScaleMeasurement[], cpusPerRenderer: number): CapacityModel {
  const measurements = all.filter((entry) => entry.idleGateway === undefined);
  const fanOutRuns = all.filter((entry) => entry.idleGateway !== undefined);
  if (measurements.length === 0) throw new Error('no measurements');
  const perRenderer = median(measurements.map((entry) => entry.window.cardsPerSecond / entry.renderers));
  const most = Math.max(...measurements.map((entry) => entry.renderers));
  const busiest = measurements.filter((entry) => entry.renderers === most);
  const cost = (read: (entry: ScaleMeasurement) => number) => median(busiest.map(read));
  const gatewayMain = cost((entry) => entry.gateway.mainThreadPerCard);
  const redisMain = cost((entry) => entry.redis.mainThreadPerCard);
  const gatewayCardsPerSecond = PLANNING_UTILIZATION / gatewayMain;
  const redisCardsPerSecond = PLANNING_UTILIZATION / redisMain;
  const fanOut = fanOutRuns.length === 0 ? undefined : median(fanOutRuns.map((entry) => entry.idleGateway!.mainThreadPerCard));
  return {
    cpusPerRenderer,
    cardsPerSecondPerRenderer: perRenderer,
    costsFromRenderers: most,
    gateway: {
      cpuMsPerCard: cost((entry) => entry.gateway.cpuPerCard) * 1000,
      mainThreadMsPerCard: gatewayMain * 1000,
      cardsPerSecond: gatewayCardsPerSecond,
      renderers: wholeRenderers(gatewayCardsPerSecond / perRenderer),
    },
    redis: {
      commandsPerCard: cost((entry) => entry.redis.commandsPerCard),
      cpuMsPerCard: cost((entry) => entry.redis.cpuPerCard) * 1000,
      mainThreadMsPerCard: redisMain * 1000,
      cardsPerSecond: redisCardsPerSecond,
      renderers: wholeRenderers(redisCardsPerSecond / perRenderer),
    },
    ...(fanOut !== undefined && {
      gateways: {
        fanOutMsPerCard: fanOut * 1000,
        quietMsPerSecond: median(fanOutRuns.map((entry) => entry.idleGateway!.quietMainThreadPerSecond)) * 1000,
        ceilingCardsPerSecond: PLANNING_UTILIZATION / fanOut,
        cardsPerSecondWith: Object.fromEntries([2, 4, 8].map((count) => [count, gatewaysCardsPerSecond(count, gatewayMain, fanOut)])),
        redisCpuMsPerCard: { withSecondGateway: median(fanOutRuns.map((entry) => entry.redis.cpuPerCard)) * 1000, without: cost((entry) => entry.redis.cpuPerCard) * 1000 },
      },
    }),
  };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export interface ScaleResult {
  settings: ScaleSettings;
  measurements: ScaleMeasurement[];
  rows: ScaleRow[];
  capacity: CapacityModel;
  checks: ScaleCheck[];
}

export function summarizeScale(settings: ScaleSettings, measurements: ScaleMeasurement[]): ScaleResult {
  const rows = scaleRows(measurements, settings.rendererCounts);
  return { settings, measurements, rows, capacity: capacityModel(measurements, settings.cpus), checks: checkScaleTargets(rows) };
}

/** The scale section of the bench report, with its own targets (PASS/FAIL). */
export function scaleMarkdown(result: ScaleResult): string[] {
  const { settings, measurements, rows, capacity: model, checks } = result;
  const { cpus } = settings;
  const base = settings.rendererCounts[0];
  return [
    `### Renderer scaling: each renderer in its own cgroup with ${cpus} CPU (RENDER_WORKERS=${settings.renderWorkers}, RENDER_CONCURRENCY=${settings.rendererConcurrency}), ${settings.clientsPerRenderer} closed-loop clients per renderer, ${settings.warmupSeconds} s warm-up, ${settings.windowSeconds} s window`,
    '',
    `| renderers | runs | cards/s median (min–max) | × ${base} renderer${base === 1 ? '' : 's'}, median (min–max) | p50 ms | p95 ms | renderer quota used | gateway CPU ms/card | Redis commands/card |`,
    '| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.renderers} | ${row.runs} | ${fixed(row.cardsPerSecond.median, 2)} (${fixed(row.cardsPerSecond.min, 2)}–${fixed(row.cardsPerSecond.max, 2)}) | ${row.ratio ? `${fixed(row.ratio.median, 2)} (${fixed(row.ratio.min, 2)}–${fixed(row.ratio.max, 2)})` : 'n/a'} | ${fixed(row.p50Ms, 0)} | ${fixed(row.p95Ms, 0)} | ${fixed(row.quotaUsed * 100, 0)}% | ${fixed(row.gatewayCpuMsPerCard, 2)} | ${fixed(row.redisCommandsPerCard, 1)} |`,
    ),
    '',
    'Every run: (gateway event-loop thread in parentheses; renderer CPU from the groups\' cpuacct; throttled: CFS periods in which a group hit its quota; bench process: the load loop and the S3 stand-in)',
    '',
    '| round | renderers | clients | cards | cards/s | p95 ms | cards by renderer | gateway CPU ms/card | Redis CPU ms/card | renderer CPU ms/card | throttled | bench process ms/card |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...measurements.map(
      (entry) =>
        `| ${entry.idleGateway ? `${entry.round} (+ idle gateway: ${fixed(entry.idleGateway.cpuPerCard * 1000, 2)} (${fixed(entry.idleGateway.mainThreadPerCard * 1000, 2)}) ms/card beyond its quiet use)` : entry.round} | ${entry.renderers} | ${entry.clients} | ${entry.window.cards} | ${fixed(entry.window.cardsPerSecond, 2)} | ${fixed(entry.window.p95Ms, 0)} | ${entry.cardsByRenderer.join(' / ')} | ${fixed(entry.gateway.cpuPerCard * 1000, 2)} (${fixed(entry.gateway.mainThreadPerCard * 1000, 2)}) | ${fixed(entry.redis.cpuPerCard * 1000, 2)} | ${fixed(entry.renderersCpu.cpuPerCard * 1000, 0)} | ${fixed(entry.renderersCpu.throttledPeriodShare * 100, 0)}% | ${fixed(entry.benchProcessCpuPerCard * 1000, 1)} |`,
    ),
    '',
    `Redis commands per card (commandstats, commands inside BullMQ's Lua scripts included), last run with one gateway: ${
      measurements
        .filter((entry) => entry.idleGateway === undefined)
        .at(-1)
        ?.redis.topCommands.map((entry) => `${entry.command} ${fixed(entry.perCard, 1)}`)
        .join(', ') ?? 'n/a'
    }.`,
    '',
    `#### Capacity model (a single-threaded loop planned at ${PLANNING_UTILIZATION * 100}% of a core; costs per card from the ${model.costsFromRenderers}-renderer runs)`,
    '',
    `One renderer with ${cpus} CPU draws ${fixed(model.cardsPerSecondPerRenderer, 2)} cards/s (${fixed(model.cardsPerSecondPerRenderer / cpus, 1)} per full CPU).`,
    '',
    '| process | cost per card | cards/s it can carry | renderers it feeds |',
    '| --- | --- | ---: | ---: |',
    `| gateway (one Node process) | ${fixed(model.gateway.cpuMsPerCard, 2)} ms CPU, ${fixed(model.gateway.mainThreadMsPerCard, 2)} ms on the event loop | ${fixed(model.gateway.cardsPerSecond, 0)} | ${model.gateway.renderers} |`,
    `| Redis | ${fixed(model.redis.commandsPerCard, 1)} commands, ${fixed(model.redis.cpuMsPerCard, 2)} ms CPU, ${fixed(model.redis.mainThreadMsPerCard, 2)} ms on the main thread | ${fixed(model.redis.cardsPerSecond, 0)} | ${model.redis.renderers} |`,
    '',
    ...(model.gateways
      ? [
          `More gateways: a second gateway taking no requests spent ${fixed(model.gateways.fanOutMsPerCard, 2)} ms of its event loop per card of the system (its QueueEvents reads every job's events; ${fixed(model.gateways.quietMsPerSecond, 1)} ms/s it spends with no cards at all taken off), ` +
            `so gateways behind a balancer carry ${Object.entries(model.gateways.cardsPerSecondWith)
              .map(([count, rate]) => `${fixed(rate, 0)} cards/s with ${count}`)
              .join(', ')}, never more than ${fixed(model.gateways.ceilingCardsPerSecond, 0)}. Redis CPU per card with the second gateway: ${fixed(model.gateways.redisCpuMsPerCard.withSecondGateway, 2)} ms (${fixed(model.gateways.redisCpuMsPerCard.without, 2)} ms without).`,
          '',
        ]
      : []),
    '#### Scaling targets',
    '',
    '| target | measured | result |',
    '| --- | --- | --- |',
    ...checks.map((check) => `| ${check.target} | ${check.measured} | ${check.pass ? 'PASS' : 'FAIL'} |`),
    ...(checks.length === 0 ? ['| (none checked: the targets are ratios over 1 renderer, which this run did not measure) | | |'] : []),
    '',
  ];
}
