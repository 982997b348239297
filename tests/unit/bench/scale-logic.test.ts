import test from 'ava';
import { cfsQuotaMicros, groupOwnerPid, parseCpuShare, parseCpuStat } from '../../../scripts/bench/cpu-cgroups.ts';
import { commandDelta, parseCommandStats } from '../../../scripts/bench/redis-stats.ts';
import type { ScaleMeasurement } from '../../../scripts/bench/renderer-scaling.ts';
import { capacityModel, checkScaleTargets, gatewaysCardsPerSecond, PLANNING_UTILIZATION, scaleRows } from '../../../scripts/bench/scale-report.ts';
import { scaleSettingsFromArgs } from '../../../scripts/bench/scale-settings.ts';
import { summarizeWindow, type RequestSample } from '../../../scripts/bench/window-load.ts';

test('a CPU share becomes a CFS quota per 100 ms period, and nonsense is refused rather than run unlimited', (t) => {
  t.is(cfsQuotaMicros(0.25), 25_000);
  t.is(cfsQuotaMicros(1), 100_000);
  t.is(cfsQuotaMicros(1.5), 150_000);
  t.is(cfsQuotaMicros(0.5, 50_000), 25_000);
  for (const bad of [0, -0.25, Number.NaN, Number.POSITIVE_INFINITY]) t.throws(() => cfsQuotaMicros(bad), { message: /positive number of CPUs/ });
  t.throws(() => cfsQuotaMicros(0.005), { message: /smallest quota/ });
  t.is(parseCpuShare('0.25'), 0.25);
  t.is(parseCpuShare('.5'), 0.5);
  t.is(parseCpuShare('2'), 2);
  for (const bad of ['', 'max', '-1', '0.25cpu', '1e-1', '0']) t.throws(() => parseCpuShare(bad));
});

test('cpu.stat of a cgroup v1 cpu group is read, and a file without the counters is an error', (t) => {
  const text = 'nr_periods 1200\nnr_throttled 1150\nthrottled_time 84500000000\nnr_bursts 0\nburst_time 0\n';
  t.deepEqual(parseCpuStat(text), { periods: 1200, throttledPeriods: 1150, throttledSeconds: 84.5 });
  t.throws(() => parseCpuStat('nr_periods 3\n'), { message: /nr_throttled/ });
});

test('only groups named by this bench tell their owner pid', (t) => {
  t.is(groupOwnerPid('utility-api-scale-4242-renderer-3'), 4242);
  t.is(groupOwnerPid('utility-api-scale--renderer-3'), undefined);
  t.is(groupOwnerPid('docker'), undefined);
  t.is(groupOwnerPid('x-utility-api-scale-4242-renderer-1'), undefined);
});

test('Redis commandstats are read (subcommands too) and compared between snapshots', (t) => {
  const before = parseCommandStats(
    '# Commandstats\r\ncmdstat_evalsha:calls=10,usec=500,usec_per_call=50.00,rejected_calls=0,failed_calls=0\r\ncmdstat_info:calls=1,usec=30,usec_per_call=30.00\r\ncmdstat_client|setname:calls=4,usec=4,usec_per_call=1.00\r\n',
  );
  t.deepEqual(before.get('client|setname'), { calls: 4, usec: 4 });
  const after = parseCommandStats(
    'cmdstat_evalsha:calls=40,usec=2000,usec_per_call=50.00\ncmdstat_info:calls=3,usec=90\ncmdstat_client|setname:calls=4,usec=4\ncmdstat_xadd:calls=12,usec=60\n',
  );
  // info (the bench's own snapshots) is left out; an unchanged command is not listed; a new one counts from zero.
  t.deepEqual(commandDelta(before, after), [
    { command: 'evalsha', calls: 30, usec: 1500 },
    { command: 'xadd', calls: 12, usec: 60 },
  ]);
  t.throws(() => commandDelta(after, before), { message: /went down for evalsha/ });
});

test('the measurement window counts only answers that finished inside it', (t) => {
  const samples: RequestSample[] = [
    { finishedAt: 900, latencyMs: 5000, status: '200', render: 'new' }, // warm-up
    ...Array.from({ length: 20 }, (_, index): RequestSample => ({ finishedAt: 1000 + index * 100, latencyMs: 100 + index * 10, status: '200', render: 'new' })),
    { finishedAt: 2500, latencyMs: 40, status: '503' },
    { finishedAt: 2600, latencyMs: 40, status: '200', render: 'reused' },
    { finishedAt: 3000, latencyMs: 9000, status: '200', render: 'new' }, // drain: the window is [1000, 3000)
  ];
  const summary = summarizeWindow(samples, 1000, 3000);
  t.is(summary.cards, 21);
  t.is(summary.seconds, 2);
  t.is(summary.cardsPerSecond, 10.5);
  t.is(summary.p50Ms, 190);
  t.is(summary.p95Ms, 280);
  t.deepEqual(summary.failures, { '503': 1 });
  t.is(summary.reused, 1);
  t.throws(() => summarizeWindow(samples, 3000, 3000));
});

function measurement(round: number, renderers: number, cardsPerSecond: number, costs: { gatewayMain?: number; redisMain?: number } = {}): ScaleMeasurement {
  return {
    round,
    renderers,
    clients: renderers * 8,
    window: { cards: cardsPerSecond * 20, seconds: 20, cardsPerSecond, p50Ms: 700, p95Ms: 1000, failures: {}, reused: 0 },
    cardsByRenderer: Array.from({ length: renderers }, () => (cardsPerSecond * 20) / renderers),
    gateway: { cpuPerCard: 0.004, mainThreadPerCard: costs.gatewayMain ?? 0.0035, cores: 0.1 },
    redis: { commandsPerCard: 44, cpuPerCard: 0.0008, mainThreadPerCard: costs.redisMain ?? 0.0007, topCommands: [] },
    renderersCpu: { cpuPerCard: 0.025, quotaUsed: 0.99, throttledPeriodShare: 0.97 },
    benchProcessCpuPerCard: 0.005,
  };
}

test('ratios are taken within a round against that round\'s single renderer, then their median is checked', (t) => {
  const runs = [
    measurement(1, 1, 10), measurement(1, 2, 19), measurement(1, 4, 36),
    measurement(2, 1, 8), measurement(2, 2, 16.8), measurement(2, 4, 26), // a slow round: 2.1× and 3.25×
    measurement(3, 1, 10), measurement(3, 2, 17), measurement(3, 4, 35),
  ];
  const rows = scaleRows(runs, [1, 2, 4]);
  t.deepEqual(rows.map((row) => row.cardsPerSecond.median), [10, 17, 35]);
  t.deepEqual(rows[1]!.ratio, { median: 1.9, min: 1.7, max: 2.1 });
  t.deepEqual(rows[2]!.ratio, { median: 3.5, min: 3.25, max: 3.6 });
  t.deepEqual(
    checkScaleTargets(rows).map((check) => [check.target, check.pass]),
    [
      ['2 renderers ≥ 1.8 × the cards/s of 1', true],
      ['4 renderers ≥ 3.4 × the cards/s of 1', true],
    ],
  );
  const slow = scaleRows([measurement(1, 1, 10), measurement(1, 4, 30)], [1, 4]);
  t.false(checkScaleTargets(slow)[0]!.pass);
  // Targets are ratios over one renderer: another base is not checked against them.
  t.deepEqual(checkScaleTargets(scaleRows([measurement(1, 2, 20), measurement(1, 4, 40)], [2, 4])), []);
  // A count whose base round is missing has no ratio and no check.
  t.is(scaleRows([measurement(2, 2, 18)], [1, 2])[0]!.ratio, undefined);
});

test('the capacity model divides what one thread carries at the planning utilization by one renderer\'s cards/s', (t) => {
  // 10 cards/s per renderer; in the busiest (4-renderer) runs the gateway's event loop spends 3.5 ms a card, Redis's 0.7 ms.
  const quiet = { gatewayMain: 0.006, redisMain: 0.002 };
  const model = capacityModel([measurement(1, 1, 10, quiet), measurement(1, 2, 20, quiet), measurement(1, 4, 40), measurement(2, 4, 40)], 0.25);
  t.is(model.cardsPerSecondPerRenderer, 10);
  t.is(model.costsFromRenderers, 4);
  t.is(Math.round(model.gateway.cardsPerSecond), Math.round(PLANNING_UTILIZATION / 0.0035));
  t.is(model.gateway.renderers, 20);
  t.is(model.redis.renderers, 100);
  t.is(model.redis.commandsPerCard, 44);
  t.is(model.gateways, undefined);
  t.throws(() => capacityModel([], 0.25));
});

test('a run with an idle second gateway gives the fan-out cost and is kept out of the scaling rows', (t) => {
  const fanOut = { ...measurement(3, 4, 40), idleGateway: { cpuPerCard: 0.0006, mainThreadPerCard: 0.0005, quietMainThreadPerSecond: 0.007 }, redis: { ...measurement(3, 4, 40).redis, cpuPerCard: 0.0009 } };
  const runs = [measurement(1, 1, 10), measurement(1, 4, 40), fanOut];
  t.deepEqual(scaleRows(runs, [1, 4]).map((row) => row.runs), [1, 1]);
  const model = capacityModel(runs, 0.25);
  t.is(model.gateway.mainThreadMsPerCard, 3.5);
  // Each gateway serves 1/G of the cards (3.0 ms each) and pays 0.5 ms for every card of the system.
  t.is(Math.round(gatewaysCardsPerSecond(1, 0.0035, 0.0005)), 200);
  t.is(Math.round(gatewaysCardsPerSecond(2, 0.0035, 0.0005)), 350);
  t.is(Math.round(model.gateways!.cardsPerSecondWith[4]!), Math.round(0.7 / (0.003 / 4 + 0.0005)));
  t.is(Math.round(model.gateways!.ceilingCardsPerSecond), 1400);
  t.is(model.gateways!.quietMsPerSecond, 7);
  t.deepEqual(model.gateways!.redisCpuMsPerCard, { withSecondGateway: 0.9, without: 0.8 });
});

test('scale flags: defaults, --quick, every flag, and bad values refused', (t) => {
  t.deepEqual(scaleSettingsFromArgs(['--scale']), { rendererCounts: [1, 2, 4], cpus: 0.25, rounds: 3, warmupSeconds: 10, windowSeconds: 20, clientsPerRenderer: 8, rendererConcurrency: 4, renderWorkers: 1 });
  t.like(scaleSettingsFromArgs(['--scale', '--quick']), { rounds: 1, warmupSeconds: 5, windowSeconds: 10 });
  t.deepEqual(
    scaleSettingsFromArgs(['--scale', '--renderer-cpus=0.5', '--scale-renderers=1,3', '--scale-rounds=5', '--scale-warmup=4', '--scale-seconds=30', '--clients-per-renderer=12', '--render-concurrency=2', '--render-workers=2']),
    { rendererCounts: [1, 3], cpus: 0.5, rounds: 5, warmupSeconds: 4, windowSeconds: 30, clientsPerRenderer: 12, rendererConcurrency: 2, renderWorkers: 2 },
  );
  t.throws(() => scaleSettingsFromArgs(['--renderer-cpus=unlimited']), { message: /--renderer-cpus/ });
  t.throws(() => scaleSettingsFromArgs(['--scale-renderers=1,0']), { message: /--scale-renderers/ });
  t.throws(() => scaleSettingsFromArgs(['--scale-renderers=2,2']), { message: /twice/ });
  t.throws(() => scaleSettingsFromArgs(['--scale-seconds=1.5']), { message: /--scale-seconds/ });
});
