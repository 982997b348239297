import { formatCostTable } from './card-formats.ts';
import { median } from './stats.ts';
import type { AnimatedCardMeasurement, CardRenderMeasurement } from './card-render.ts';
import { BARE_HTTP, BASELINE_GATEWAY, GATEWAY, PLAIN_KOA, type LightEndpointsResult, type LightMeasurement } from './light-endpoints.ts';
import type { ProcessMemory, ProfileImageMeasurement } from './profile-image.ts';
import { scaleMarkdown, type ScaleResult } from './scale-report.ts';
import type { Spread } from './stats.ts';

export interface BenchResults {
  light?: LightEndpointsResult;
  card?: CardRenderMeasurement[];
  animatedCard?: AnimatedCardMeasurement[];
  profileImage?: { measurements: ProfileImageMeasurement[]; memory: ProcessMemory[]; renderWorkers: Record<string, number>; mediaFileCreationMicros?: number };
  /** `--scale`: renderers under CPU quotas; its targets are in its own section. */
  scale?: ScaleResult;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean | undefined;
}

/** The targets of issue 7. */
export const TARGETS = {
  /** Issue 25: the gateway's req/s over plain Koa's (paired by round), and the moonshot. */
  lightRatioToKoa: 0.6,
  lightRatioMoonshot: 0.7,
  lightP99Ms: 10,
  cardDrawEncodeMedianMs: 20,
  profileNewP50Ms: 40,
  rendererScaling: 1.8,
  repeatP50Ms: 5,
  animatedWebpMs: 1500,
  animatedWebpBytes: 8 * 1024 * 1024,
  /** Issue 25: distinct cards at concurrency 8, embedded, and the CPU each costs by process. */
  embeddedC8CardsPerSecond: 140,
  gatewayCpuMsPerCard: 3,
  workerCpuMsPerCard: 10,
} as const;

const fixed = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function lightLookup(light: LightEndpointsResult, endpoint: string, server: string): LightMeasurement | undefined {
  return light.measurements.find((measurement) => measurement.endpoint === endpoint && measurement.server === server);
}

/** Per endpoint: the gateway (and the baseline checkout's, when run) against plain Koa and bare node:http. */
function lightRatios(light: LightEndpointsResult) {
  const endpoints = [...new Set(light.measurements.map((measurement) => measurement.endpoint))];
  const gateways = [GATEWAY, ...(light.servers.includes(BASELINE_GATEWAY) ? [BASELINE_GATEWAY] : [])];
  return endpoints.flatMap((endpoint) => {
    const koa = lightLookup(light, endpoint, PLAIN_KOA);
    const bare = lightLookup(light, endpoint, BARE_HTTP);
    return gateways.map((server) => {
      const gateway = lightLookup(light, endpoint, server);
      const cpuRatio = (other: LightMeasurement | undefined) =>
        gateway?.median.cpuMicrosPerRequest !== undefined && other?.median.cpuMicrosPerRequest !== undefined
          ? other.median.cpuMicrosPerRequest / gateway.median.cpuMicrosPerRequest
          : Number.NaN;
      return {
        endpoint,
        server,
        gateway,
        toKoa: gateway && koa ? gateway.median.requestsPerSecond / koa.median.requestsPerSecond : Number.NaN,
        toBare: gateway && bare ? gateway.median.requestsPerSecond / bare.median.requestsPerSecond : Number.NaN,
        cpuToKoa: cpuRatio(koa),
        cpuToBare: cpuRatio(bare),
      };
    });
  });
}

function profileLookup(measurements: readonly ProfileImageMeasurement[], topology: string, kind: string, concurrency: number) {
  return measurements.find((measurement) => measurement.topology === topology && measurement.kind === kind && measurement.load.concurrency === concurrency);
}

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  if (results.light) {
    for (const paired of results.light.pairedToKoa.filter((entry) => entry.server === GATEWAY)) {
      const ratio = paired.requestsPerSecond;
      checks.push({
        target: `${paired.endpoint}: gateway ≥ ${TARGETS.lightRatioToKoa} × plain Koa req/s (moonshot ${TARGETS.lightRatioMoonshot})`,
        measured: `${fixed(ratio.median, 2)} × median of ${ratio.n} paired windows (IQR ${fixed(ratio.q1, 2)}–${fixed(ratio.q3, 2)})${ratio.median >= TARGETS.lightRatioMoonshot ? ', moonshot reached' : ''}`,
        pass: ratio.n === 0 ? undefined : ratio.median >= TARGETS.lightRatioToKoa,
      });
      const gateway = lightLookup(results.light, paired.endpoint, GATEWAY);
      checks.push({
        target: `${paired.endpoint}: gateway p99 < ${TARGETS.lightP99Ms} ms at ${results.light.connections} connections, warm`,
        measured: `${fixed(gateway?.spread.p99Ms.median, 2)} ms median (worst window ${fixed(gateway?.spread.p99Ms.max, 2)} ms)`,
        pass: gateway !== undefined && gateway.spread.p99Ms.median < TARGETS.lightP99Ms,
      });
    }
  }
  const animatedWebp = results.animatedCard?.find((card) => card.format === 'webp');
  if (animatedWebp) {
    checks.push({
      target: `animated card (GIF avatar + 40-frame background) as animated WebP ≤ ${TARGETS.animatedWebpMs} ms and ≤ 8 MB`,
      measured: `${fixed(animatedWebp.totalMs.median, 0)} ms median, ${(animatedWebp.bytes / 1024).toFixed(0)} KB, ${animatedWebp.frames} frames`,
      pass: animatedWebp.totalMs.median <= TARGETS.animatedWebpMs && animatedWebp.bytes <= TARGETS.animatedWebpBytes,
    });
  }
  for (const card of results.card ?? []) {
    checks.push({
      target: `card "${card.set}": draw+encode median ≤ ${TARGETS.cardDrawEncodeMedianMs} ms`,
      measured: `${fixed(card.drawEncodeMs.median)} ms`,
      pass: card.drawEncodeMs.median <= TARGETS.cardDrawEncodeMedianMs,
    });
  }
  if (results.profileImage) {
    const { measurements } = results.profileImage;
    const topologies = [...new Set(measurements.map((measurement) => measurement.topology))];
    for (const topology of topologies) {
      const fresh = profileLookup(measurements, topology, 'new', 1);
      checks.push({
        target: `profile-image ${topology}: new card p50 ≤ ${TARGETS.profileNewP50Ms} ms at concurrency 1`,
        measured: `${fixed(fresh?.load.p50Ms)} ms`,
        pass: fresh !== undefined && fresh.load.p50Ms <= TARGETS.profileNewP50Ms,
      });
    }
    for (const topology of topologies) {
      const repeat = profileLookup(measurements, topology, 'repeat', 1);
      const allReused = repeat !== undefined && (repeat.load.renders.reused ?? 0) === repeat.load.requests;
      checks.push({
        target: `profile-image ${topology}: repeated request p50 ≤ ${TARGETS.repeatP50Ms} ms without rendering`,
        measured: `${fixed(repeat?.load.p50Ms, 2)} ms, ${allReused ? 'all reused' : 'NOT all reused'}`,
        pass: repeat !== undefined && allReused && repeat.load.p50Ms <= TARGETS.repeatP50Ms,
      });
    }
    // Median over the concurrency-8 windows, with the spread beside it: the machine is shared.
    const c8 = measurements.filter((measurement) => measurement.topology === 'embedded' && measurement.kind === 'new' && measurement.load.concurrency === 8);
    const spreadOf = (middle: number, values: number[], digits: number) => `${fixed(middle, digits)} (${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)})`;
    const c8Checks: [string, (measurement: ProfileImageMeasurement) => number | undefined, number, 'at least' | 'at most', string][] = [
      ['cards/s', (measurement) => measurement.load.perSecond, TARGETS.embeddedC8CardsPerSecond, 'at least', 'cards/s'],
      ['gateway CPU per card', (measurement) => measurement.cpuMsPerRequest.gateway, TARGETS.gatewayCpuMsPerCard, 'at most', 'ms'],
      ['render worker CPU per card', (measurement) => measurement.cpuMsPerRequest['gateway render workers'], TARGETS.workerCpuMsPerCard, 'at most', 'ms'],
    ];
    for (const [what, read, target, direction, unit] of c8Checks) {
      const values = c8.map(read).filter((value): value is number => value !== undefined);
      // With an even count of windows the nearest-rank median is the lower middle one: that flatters
      // an "at most" target, so the check takes the middle window on the target's harder side.
      const middle = values.length === 0 ? undefined : direction === 'at least' ? median(values) : -median(values.map((value) => -value));
      checks.push({
        target: `profile-image embedded, new cards at concurrency 8: ${what} ${direction === 'at least' ? '≥' : '≤'} ${target} ${unit} (median of ${c8.length} windows)`,
        measured: middle === undefined ? 'n/a' : `${spreadOf(middle, values, unit === 'ms' ? 2 : 1)} ${unit}${what === 'gateway CPU per card' && results.profileImage.mediaFileCreationMicros !== undefined ? `; creating a file in its media directory: ${fixed(results.profileImage.mediaFileCreationMicros, 0)} µs` : ''}`,
        pass: middle === undefined ? undefined : direction === 'at least' ? middle >= target : middle <= target,
      });
    }
    const one = profileLookup(measurements, 'stack, 1 renderer', 'new', 16);
    const two = profileLookup(measurements, 'stack, 2 renderers', 'new', 16);
    const scaling = one && two ? two.load.perSecond / one.load.perSecond : Number.NaN;
    checks.push({
      target: `stack: 2 renderers ≥ ${TARGETS.rendererScaling} × the cards/s of 1 (new cards, concurrency 16)`,
      measured: `${fixed(scaling, 2)} × (${fixed(two?.load.perSecond)} / ${fixed(one?.load.perSecond)} cards/s)`,
      pass: Number.isNaN(scaling) ? undefined : scaling >= TARGETS.rendererScaling,
    });
  }
  return checks;
}

export function markdownReport(results: BenchResults, checks: readonly TargetCheck[], heading: string): string {
  const lines: string[] = [heading, ''];
  const { light, card, animatedCard, profileImage } = results;
  if (light) {
    const iqr = (spread: Spread | undefined, digits: number) => (spread === undefined ? 'n/a' : `${fixed(spread.median, digits)} (${fixed(spread.q1, digits)}–${fixed(spread.q3, digits)})`);
    lines.push(
      `### Light endpoints: ${light.connections} connections, ${light.rounds} rounds of ${light.secondsPerRun} s windows, servers taking turns (wrk${light.pinned ? '; servers on core 0, wrk on core 1' : '; unpinned: no taskset'})`,
      '',
      'Each cell: median over the windows, then the interquartile range in brackets. CPU is the server process\'s user + system time from /proc per answered request.',
      '',
      '| endpoint | server | req/s | CPU µs/request | p50 ms | p99 ms (worst) |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
      ...light.measurements.map(
        (measurement) =>
          `| ${measurement.endpoint} | ${measurement.server} | ${iqr(measurement.spread.requestsPerSecond, 0)} | ${iqr(measurement.spread.cpuMicrosPerRequest, 1)} | ${fixed(measurement.median.p50Ms, 2)} | ${fixed(measurement.spread.p99Ms.median, 2)} (${fixed(measurement.spread.p99Ms.max, 2)}) |`,
      ),
      '',
      'Against plain Koa, round by round (each window divided by the Koa window of the same round): req/s ratio, and CPU ratio (Koa\'s µs per request over the server\'s; 1 = as cheap as Koa).',
      '',
      '| endpoint | server | req/s vs plain Koa | CPU vs plain Koa | req/s vs bare (medians) | response bytes |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
      ...light.pairedToKoa.map((paired) => {
        const bare = lightRatios(light).find((ratio) => ratio.endpoint === paired.endpoint && ratio.server === paired.server);
        return `| ${paired.endpoint} | ${paired.server} | ${iqr(paired.requestsPerSecond, 2)} | ${iqr(paired.cpu, 2)} | ${fixed(bare?.toBare, 2)} | ${light.responseBytes[paired.endpoint] ?? 'n/a'} |`;
      }),
      '',
      `Gateway log: ${(light.gatewayLogBytes / 1048576).toFixed(1)} MiB written at LOG_LEVEL=info.`,
      '',
      ...(light.equalLoad.length === 0
        ? []
        : [
            `At the same offered load (an open loop at ${light.equalLoad[0]!.requestsPerSecond} req/s from one process on the load core, ${light.equalLoad[0]!.cpuRatio.n} alternating windows per server): both servers partly idle, so neither pays more than the other for waking the load generator.`,
            '',
            '| endpoint | gateway CPU µs/request | plain Koa CPU µs/request | CPU vs plain Koa (per round) | gateway p99 ms | plain Koa p99 ms |',
            '| --- | ---: | ---: | ---: | ---: | ---: |',
            ...light.equalLoad.map(
              (entry) =>
                `| ${entry.endpoint} | ${iqr(entry.gateway.cpuMicrosPerRequest, 1)} | ${iqr(entry.koa.cpuMicrosPerRequest, 1)} | ${iqr(entry.cpuRatio, 2)} | ${fixed(entry.gateway.p99Ms.median, 2)} | ${fixed(entry.koa.p99Ms.median, 2)} |`,
            ),
            '',
          ]),
    );
  }
  if (card) {
    lines.push(
      `### Card render: distinct cards, ${card[0]?.renders ?? 0} renders per set, in this process`,
      '',
      '| set | CPU ms/card med (min-max over rounds of 10) | draw ms med / p95 | encode ms med / p95 | draw+encode ms med / p95 | prepare ms med | PNG KB |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...card.map(
        (set) =>
          `| ${set.set} | ${fixed(set.cpuMs.median, 2)} (${fixed(set.cpuMs.min, 2)}-${fixed(set.cpuMs.max, 2)}) | ${fixed(set.drawMs.median)} / ${fixed(set.drawMs.p95)} | ${fixed(set.encodeMs.median)} / ${fixed(set.encodeMs.p95)} | ${fixed(set.drawEncodeMs.median)} / ${fixed(set.drawEncodeMs.p95)} | ${fixed(set.prepareMs.median)} | ${(set.pngBytes / 1024).toFixed(0)} |`,
      ),
      '',
      'Stored formats (`format`), encoded as the render worker does; encode ms includes the PNG encode:',
      '',
      ...formatCostTable(card),
      '',
    );
  }
  if (animatedCard) {
    lines.push(
      `### Animated card: photo + rank with a 24-frame GIF avatar and a 40-frame WebP background, ${animatedCard[0]?.renders ?? 0} renders per format, in this process`,
      '',
      '| format | frames | total ms med / p95 | prepare ms | draw ms | encode ms | KB |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...animatedCard.map(
        (row) =>
          `| ${row.format} | ${row.frames} | ${fixed(row.totalMs.median, 0)} / ${fixed(row.totalMs.p95, 0)} | ${fixed(row.timings.prepare, 0)} | ${fixed(row.timings.draw, 0)} | ${fixed(row.timings.encode, 0)} | ${(row.bytes / 1024).toFixed(0)} |`,
      ),
      '',
    );
  }
  if (profileImage) {
    lines.push(
      '### POST /v1/profile-image end to end',
      '',
      '| topology | render workers | cards | concurrency | p50 ms | p99 ms | cards/s | requests | X-Card-Render | CPU ms per request by process |',
      '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
      ...profileImage.measurements.map(
        (measurement) =>
          `| ${measurement.topology} | ${profileImage.renderWorkers[measurement.topology] ?? 'n/a'} | ${measurement.kind} | ${measurement.load.concurrency} | ${fixed(measurement.load.p50Ms)} | ${fixed(measurement.load.p99Ms)} | ${fixed(measurement.load.perSecond)} | ${measurement.load.requests} | ${Object.entries(
            measurement.load.renders,
          )
            .map(([render, count]) => `${render} ${count}`)
            .join(', ')} | ${Object.entries(measurement.cpuMsPerRequest)
            .map(([process, ms]) => `${process} ${ms.toFixed(1)}`)
            .join(', ')} |`,
      ),
      '',
      '"bench process" is the load loop, and in the stack also the S3 server (s3rver runs in it).',
      '',
    );
  }
  if (results.scale) lines.push(...scaleMarkdown(results.scale));
  const memory: ProcessMemory[] = [
    ...(light ? [{ process: 'light endpoints: gateway (embedded)', peakRssMiB: light.gatewayPeakRssMiB }] : []),
    ...(profileImage?.memory ?? []),
  ];
  if (memory.length > 0) {
    lines.push('### Peak RSS (VmHWM at the end of each phase, each process with its render workers)', '', '| process | MiB |', '| --- | ---: |', ...memory.map((entry) => `| ${entry.process} | ${fixed(entry.peakRssMiB, 0)} |`), '');
  }
  if (checks.length > 0) {
    lines.push(
      '### Targets',
      '',
      '| target | measured | result |',
      '| --- | --- | --- |',
      ...checks.map((check) => `| ${check.target} | ${check.measured} | ${check.pass === undefined ? 'n/a' : check.pass ? 'PASS' : 'MISS'} |`),
    );
  }
  return lines.join('\n');
}
