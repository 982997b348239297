import { statSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { HAS_TASKSET, startBenchProcess, summaryLineOf, type BenchProcess } from './bench-process.ts';
import type { PacedLoadOptions, PacedLoadResult } from './paced-load.ts';
import type { CannedRoute } from './baseline/canned-routes.ts';
import { cpuSeconds, peakRssMiB } from './proc-stats.ts';
import { median, spreadOf, type Spread } from './stats.ts';
import { runWrk, type WrkRequest, type WrkResult } from './wrk.ts';

export const BENCH_API_KEY = 'bench-key-0123456789abcdef';
/** The pause before each window, for the last server's leftover work on the shared core to finish. */
const SETTLE_MS = 500;
/** Servers on core 0, the load generator on core 1 (when taskset exists). */
const SERVER_CPU = '0';
const LOAD_CPU = '1';
/**
 * The equal-load comparison's rate: about half of what the gateway answers flat out on this
 * machine (its POST, the dearer of the two), so neither server falls behind the schedule.
 */
const EQUAL_LOAD_RATE = 2500;
const EQUAL_LOAD_SECONDS = 3;
const PACED_LOAD_SCRIPT = new URL('./paced-load.ts', import.meta.url).pathname;

interface PacedWindow {
  cpuMicrosPerRequest: number;
  p99Ms: number;
}

/** One open-loop window from its own process on the load core (see paced-load.ts). */
async function runPacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  return JSON.parse(await summaryLineOf(LOAD_CPU, process.execPath, [PACED_LOAD_SCRIPT, JSON.stringify(options)], 'PACED_JSON ')) as PacedLoadResult;
}

export const GATEWAY = 'gateway';
export const PLAIN_KOA = 'plain koa';
export const BARE_HTTP = 'bare node:http';
export const BASELINE_GATEWAY = 'gateway (baseline checkout)';

interface LightEndpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  query: string;
  body?: string;
}

/** 100 numbers, the same every run. */
const SORT_BODY = JSON.stringify({ array: Array.from({ length: 100 }, (_, index) => ((index * 7919) % 1000) - 500 + index / 4) });

export const LIGHT_ENDPOINTS: readonly LightEndpoint[] = [
  { name: 'GET /v1/hex-to-rgb', method: 'GET', path: '/v1/hex-to-rgb', query: '?hex=ff8800' },
  { name: 'POST /v1/sort-array (100 numbers)', method: 'POST', path: '/v1/sort-array', query: '?sort=high', body: SORT_BODY },
];

export interface LightRun extends WrkResult {
  /** The round this window belongs to: windows of one round ran back to back, one per server. */
  round: number;
  /** CPU time the server process used (all its threads) per answered request, from /proc. */
  cpuMicrosPerRequest: number | undefined;
}

export interface LightMeasurement {
  endpoint: string;
  server: string;
  /** Each figure is the median over the windows (kept for the targets and older readers). */
  median: { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuMicrosPerRequest: number | undefined };
  /** Over the windows: req/s, CPU µs per request and p99. */
  spread: { requestsPerSecond: Spread; cpuMicrosPerRequest: Spread | undefined; p99Ms: Spread };
  runs: LightRun[];
}

/**
 * A server against plain Koa, window by window: each round's gateway window is divided by the Koa
 * window of the same round (seconds apart), so a burst of outside load that slows both cancels out.
 */
export interface LightPairedRatio {
  endpoint: string;
  server: string;
  /** The server's req/s over plain Koa's, per round. */
  requestsPerSecond: Spread;
  /** Plain Koa's CPU µs per request over the server's, per round (1 would be as cheap as Koa). */
  cpu: Spread | undefined;
}

/**
 * The gateway and plain Koa at the same offered load (an open loop at `requestsPerSecond`, below
 * what either answers flat out), in alternating windows: each server's CPU per request, and the
 * ratio window by window. Under wrk's closed loop a slower server also pays, in its socket writes,
 * for waking a load generator that sits idle between its answers, which a server as fast as Koa
 * does not (docs/performance.md); at equal load both are partly idle and pay alike.
 */
export interface LightEqualLoad {
  endpoint: string;
  requestsPerSecond: number;
  gateway: { cpuMicrosPerRequest: Spread; p99Ms: Spread };
  koa: { cpuMicrosPerRequest: Spread; p99Ms: Spread };
  /** Koa's CPU µs per request over the gateway's, per round. */
  cpuRatio: Spread;
}

export interface LightEndpointsResult {
  connections: number;
  secondsPerRun: number;
  /** Rounds of interleaved windows measured (after the warm-up). */
  rounds: number;
  /** Whether servers and wrk were pinned to separate cores (taskset). */
  pinned: boolean;
  servers: string[];
  measurements: LightMeasurement[];
  pairedToKoa: LightPairedRatio[];
  equalLoad: LightEqualLoad[];
  responseBytes: Record<string, number>;
  /** Size of the gateway's log after all runs (LOG_LEVEL=info: one JSON line per request). */
  gatewayLogBytes: number;
  gatewayPeakRssMiB: number | undefined;
}

interface RunningServer {
  name: string;
  url: string;
  process: BenchProcess;
}

const gatewayEnv = (port: number, mediaDir: string) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  API_KEYS: BENCH_API_KEY,
  LOG_LEVEL: 'info',
  // Limits on, with a budget no run can use up: every request pays for its counter, as in production.
  RATE_LIMIT_DEFAULT: '999999999/60s',
  // The same for the monthly quota: every request is checked against it and counted for usage.
  PLANS: 'bench:cards=1000000000,requests=1000000000000',
  MEDIA_DIR: mediaDir,
  // A fresh store per run, beside its media: usage counted by earlier runs does not carry over.
  DATABASE_PATH: join(mediaDir, 'accounts.sqlite'),
});

/**
 * The light endpoints through the whole gateway (auth, rate limits, validation, request ids, headers, metrics,
 * one info access-log line per request written to a file) next to a plain Koa app and a bare
 * node:http server answering the same bytes, each in its own process on the same core, with wrk
 * on the other. The machine is shared, so nothing rests on one long run: the servers take turns
 * in short windows (one window per server per round, the order rotating each round), each
 * window's CPU time per request is read from /proc, and every figure is reported as a spread over
 * the windows. The comparison with Koa is paired window by window (see LightPairedRatio). With
 * `baselineCheckout`, the gateway of that checkout (e.g. a `git worktree` of main) takes its turns
 * too, for before/after numbers from one run.
 */
export async function benchLightEndpoints(options: {
  workDir: string;
  /** Measured rounds; each gives every server one window per endpoint. */
  rounds: number;
  /** Length of one window. */
  seconds: number;
  /** Warm-up rounds first (JIT, connections, caches), not counted. */
  warmupRounds: number;
  connections: number;
  /** Rounds of the equal-load comparison (one window per server per endpoint each). */
  equalLoadRounds: number;
  baselineCheckout?: string;
  progress: (line: string) => void;
}): Promise<LightEndpointsResult> {
  const { workDir, progress } = options;
  const servers: RunningServer[] = [];
  const gatewayLog = join(workDir, 'gateway-light.log');
  try {
    const startGatewayServer = async (name: string, logFile: string, cwd?: string) => {
      const port = await freeLoopbackPort();
      const process = startBenchProcess({
        name,
        entry: GATEWAY_ENTRY,
        logFile,
        cpus: SERVER_CPU,
        env: gatewayEnv(port, join(workDir, `media-${servers.length}`)),
        ...(cwd === undefined ? {} : { cwd }),
      });
      servers.push({ name, url: `http://127.0.0.1:${port}`, process });
      await process.waitFor(/gateway listening/);
    };
    await startGatewayServer(GATEWAY, gatewayLog);
    const gatewayUrl = servers[0]!.url;

    // The baselines answer what the gateway answered, byte for byte.
    const authorization = { Authorization: BENCH_API_KEY };
    const headersFor = (endpoint: LightEndpoint) => (endpoint.body === undefined ? authorization : { ...authorization, 'Content-Type': 'application/json' });
    const send = (url: string, endpoint: LightEndpoint) =>
      fetch(`${url}${endpoint.path}${endpoint.query}`, { method: endpoint.method, headers: headersFor(endpoint), ...(endpoint.body === undefined ? {} : { body: endpoint.body }) });
    const canned: CannedRoute[] = [];
    for (const endpoint of LIGHT_ENDPOINTS) {
      const response = await send(gatewayUrl, endpoint);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${endpoint.name} answered ${response.status}: ${body}`);
      canned.push({ method: endpoint.method, path: endpoint.path, body });
    }
    for (const [name, entry] of [
      [PLAIN_KOA, 'scripts/bench/baseline/plain-koa-server.ts'],
      [BARE_HTTP, 'scripts/bench/baseline/bare-http-server.ts'],
    ] as const) {
      const port = await freeLoopbackPort();
      const process = startBenchProcess({
        name,
        entry,
        logFile: join(workDir, `${name.replace(/\W+/g, '-')}.log`),
        cpus: SERVER_CPU,
        env: { BENCH_ROUTES: JSON.stringify(canned), PORT: String(port) },
      });
      servers.push({ name, url: `http://127.0.0.1:${port}`, process });
      await process.waitFor(/listening/);
    }
    if (options.baselineCheckout !== undefined) {
      await startGatewayServer(BASELINE_GATEWAY, join(workDir, 'gateway-baseline.log'), options.baselineCheckout);
    }
    // Each gateway's render workers warm up (fonts, a first card) right after it starts; let them finish.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const responseBytes: Record<string, number> = {};
    for (const [index, endpoint] of LIGHT_ENDPOINTS.entries()) {
      responseBytes[endpoint.name] = Buffer.byteLength(canned[index]!.body);
      for (const server of servers) {
        const response = await send(server.url, endpoint);
        const bytes = Buffer.byteLength(await response.text());
        if (response.status !== 200 || bytes !== responseBytes[endpoint.name]) {
          throw new Error(`${server.name} ${endpoint.name}: ${response.status} with ${bytes} bytes, expected 200 with ${responseBytes[endpoint.name]}`);
        }
      }
    }

    const wrk = async (endpoint: LightEndpoint, server: RunningServer, seconds: number, round: number): Promise<LightRun> => {
      const cpuBefore = cpuSeconds(server.process.pid);
      const result = await runWrk({
        request: { url: `${server.url}${endpoint.path}${endpoint.query}`, method: endpoint.method, headers: headersFor(endpoint), ...(endpoint.body === undefined ? {} : { body: endpoint.body }) } satisfies WrkRequest,
        connections: options.connections,
        seconds,
        cpus: LOAD_CPU,
        scriptDir: workDir,
        name: `${server.name}-${endpoint.path}-${round}`,
      });
      const cpuAfter = cpuSeconds(server.process.pid);
      const cpuMicrosPerRequest = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
      return { ...result, round, cpuMicrosPerRequest };
    };

    // Each round visits every server once per endpoint, starting one server later than the round
    // before and going the other way round every other round: a server that just had its window
    // keeps working for a moment on its own core (garbage collection, the log file catching up),
    // and the window after it pays for that, so no server may always follow the same neighbour.
    // A short pause between windows lets most of that finish first.
    const interleaved = async (round: number, record: (endpoint: LightEndpoint, server: RunningServer, run: LightRun) => void) => {
      for (const endpoint of LIGHT_ENDPOINTS) {
        for (let turn = 0; turn < servers.length; turn += 1) {
          const step = round % 2 === 0 ? turn : servers.length - turn;
          const server = servers[(Math.floor(round / 2) + step) % servers.length]!;
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const result = await wrk(endpoint, server, options.seconds, round);
          if (result.errors > 0) throw new Error(`${server.name} ${endpoint.name}: ${result.errors} errors in round ${round}`);
          record(endpoint, server, result);
        }
      }
    };

    progress(`light endpoints: ${options.warmupRounds} warm-up round(s) (JIT, connections), not counted`);
    for (let round = 0; round < options.warmupRounds; round += 1) await interleaved(round, () => {});

    const runs = new Map<string, LightRun[]>();
    const runKey = (endpoint: string, server: string) => `${endpoint}\u0000${server}`;
    for (let round = 1; round <= options.rounds; round += 1) {
      await interleaved(round, (endpoint, server, result) => {
        const key = runKey(endpoint.name, server.name);
        runs.set(key, [...(runs.get(key) ?? []), result]);
      });
      const koaCpu = (endpoint: LightEndpoint) => runs.get(runKey(endpoint.name, PLAIN_KOA))?.at(-1)?.cpuMicrosPerRequest;
      const gatewayRun = (endpoint: LightEndpoint) => runs.get(runKey(endpoint.name, GATEWAY))?.at(-1);
      progress(
        `light endpoints: round ${round}/${options.rounds}: ${LIGHT_ENDPOINTS.map((endpoint) => `${endpoint.method} gateway ${gatewayRun(endpoint)?.requestsPerSecond.toFixed(0) ?? '?'} req/s, ${gatewayRun(endpoint)?.cpuMicrosPerRequest?.toFixed(0) ?? '?'} µs/req (Koa ${koaCpu(endpoint)?.toFixed(0) ?? '?'})`).join('; ')}`,
      );
    }
    const equalLoad: LightEqualLoad[] = [];
    const gatewayServer = servers.find((server) => server.name === GATEWAY)!;
    const koaServer = servers.find((server) => server.name === PLAIN_KOA)!;
    progress(`light endpoints: gateway and plain Koa at the same ${EQUAL_LOAD_RATE} req/s, ${options.equalLoadRounds} rounds of ${EQUAL_LOAD_SECONDS} s windows`);
    for (const endpoint of LIGHT_ENDPOINTS) {
      const windows = { gateway: [] as PacedWindow[], koa: [] as PacedWindow[] };
      for (let round = 0; round < options.equalLoadRounds; round += 1) {
        const order = round % 2 === 0 ? (['gateway', 'koa'] as const) : (['koa', 'gateway'] as const);
        for (const which of order) {
          const server = which === 'gateway' ? gatewayServer : koaServer;
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const cpuBefore = cpuSeconds(server.process.pid);
          const result = await runPacedLoad({
            url: `${server.url}${endpoint.path}${endpoint.query}`,
            method: endpoint.method,
            headers: headersFor(endpoint),
            ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
            requestsPerSecond: EQUAL_LOAD_RATE,
            seconds: EQUAL_LOAD_SECONDS,
            connections: options.connections,
          });
          const cpuAfter = cpuSeconds(server.process.pid);
          if (result.errors > 0 || cpuBefore === undefined || cpuAfter === undefined) throw new Error(`${server.name} ${endpoint.name} at ${EQUAL_LOAD_RATE} req/s: ${result.errors} errors`);
          windows[which].push({ cpuMicrosPerRequest: ((cpuAfter - cpuBefore) * 1e6) / result.answered, p99Ms: result.p99Ms });
        }
      }
      equalLoad.push({
        endpoint: endpoint.name,
        requestsPerSecond: EQUAL_LOAD_RATE,
        gateway: { cpuMicrosPerRequest: spreadOf(windows.gateway.map((window) => window.cpuMicrosPerRequest)), p99Ms: spreadOf(windows.gateway.map((window) => window.p99Ms)) },
        koa: { cpuMicrosPerRequest: spreadOf(windows.koa.map((window) => window.cpuMicrosPerRequest)), p99Ms: spreadOf(windows.koa.map((window) => window.p99Ms)) },
        cpuRatio: spreadOf(windows.gateway.map((window, round) => windows.koa[round]!.cpuMicrosPerRequest / window.cpuMicrosPerRequest)),
      });
    }

    const measurements: LightMeasurement[] = [];
    const pairedToKoa: LightPairedRatio[] = [];
    for (const endpoint of LIGHT_ENDPOINTS) {
      const koaRuns = runs.get(runKey(endpoint.name, PLAIN_KOA)) ?? [];
      for (const server of servers) {
        const serverRuns = runs.get(runKey(endpoint.name, server.name)) ?? [];
        const cpu = serverRuns.map((run) => run.cpuMicrosPerRequest).filter((value) => value !== undefined);
        measurements.push({
          endpoint: endpoint.name,
          server: server.name,
          runs: serverRuns,
          median: {
            requestsPerSecond: median(serverRuns.map((run) => run.requestsPerSecond)),
            p50Ms: median(serverRuns.map((run) => run.p50Ms)),
            p99Ms: median(serverRuns.map((run) => run.p99Ms)),
            cpuMicrosPerRequest: cpu.length > 0 ? median(cpu) : undefined,
          },
          spread: {
            requestsPerSecond: spreadOf(serverRuns.map((run) => run.requestsPerSecond)),
            cpuMicrosPerRequest: cpu.length > 0 ? spreadOf(cpu) : undefined,
            p99Ms: spreadOf(serverRuns.map((run) => run.p99Ms)),
          },
        });
        if (server.name === PLAIN_KOA) continue;
        const pairs = serverRuns.flatMap((run) => {
          const koa = koaRuns.find((candidate) => candidate.round === run.round);
          return koa === undefined ? [] : [{ run, koa }];
        });
        const cpuRatios = pairs.flatMap(({ run, koa }) => (run.cpuMicrosPerRequest && koa.cpuMicrosPerRequest ? [koa.cpuMicrosPerRequest / run.cpuMicrosPerRequest] : []));
        pairedToKoa.push({
          endpoint: endpoint.name,
          server: server.name,
          requestsPerSecond: spreadOf(pairs.map(({ run, koa }) => run.requestsPerSecond / koa.requestsPerSecond)),
          cpu: cpuRatios.length > 0 ? spreadOf(cpuRatios) : undefined,
        });
      }
    }
    return {
      connections: options.connections,
      secondsPerRun: options.seconds,
      rounds: options.rounds,
      pinned: HAS_TASKSET,
      servers: servers.map((server) => server.name),
      measurements,
      pairedToKoa,
      equalLoad,
      responseBytes,
      gatewayLogBytes: statSync(gatewayLog).size,
      gatewayPeakRssMiB: peakRssMiB(servers[0]!.process.pid),
    };
  } finally {
    await Promise.all(servers.map((server) => server.process.stop()));
  }
}
