import { statSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import type { CannedRoute } from './baseline/canned-routes.ts';
import { cpuSeconds, peakRssMiB } from './proc-stats.ts';
import { median } from './stats.ts';
import { runWrk, type WrkRequest, type WrkResult } from './wrk.ts';

export const BENCH_API_KEY = 'bench-key-0123456789abcdef';
/** Servers on core 0, the load generator on core 1 (when taskset exists). */
const SERVER_CPU = '0';
const LOAD_CPU = '1';

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
  /** CPU time the server process used (all its threads) per answered request. */
  cpuMicrosPerRequest: number | undefined;
}

export interface LightMeasurement {
  endpoint: string;
  server: string;
  /** Each figure is the median over the runs. */
  median: { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuMicrosPerRequest: number | undefined };
  runs: LightRun[];
}

export interface LightEndpointsResult {
  connections: number;
  secondsPerRun: number;
  servers: string[];
  measurements: LightMeasurement[];
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
 * on the other. Runs interleave the servers so a burst of outside load hits all alike. With
 * `baselineCheckout`, the gateway of that checkout (e.g. a `git worktree` of the last commit)
 * runs alongside, for before/after numbers from one run.
 */
export async function benchLightEndpoints(options: {
  workDir: string;
  runs: number;
  seconds: number;
  connections: number;
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

    const wrk = async (endpoint: LightEndpoint, server: RunningServer, seconds: number, label: string): Promise<LightRun> => {
      const cpuBefore = cpuSeconds(server.process.pid);
      const result = await runWrk({
        request: { url: `${server.url}${endpoint.path}${endpoint.query}`, method: endpoint.method, headers: headersFor(endpoint), ...(endpoint.body === undefined ? {} : { body: endpoint.body }) } satisfies WrkRequest,
        connections: options.connections,
        seconds,
        cpus: LOAD_CPU,
        scriptDir: workDir,
        name: `${server.name}-${endpoint.path}-${label}`,
      });
      const cpuAfter = cpuSeconds(server.process.pid);
      const cpuMicrosPerRequest = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
      return { ...result, cpuMicrosPerRequest };
    };

    progress('light endpoints: warm-up (JIT, connections)');
    for (const endpoint of LIGHT_ENDPOINTS) for (const server of servers) await wrk(endpoint, server, 2, 'warmup');

    const runs = new Map<string, LightRun[]>();
    for (let run = 1; run <= options.runs; run += 1) {
      for (const endpoint of LIGHT_ENDPOINTS) {
        for (const server of servers) {
          const result = await wrk(endpoint, server, options.seconds, `run${run}`);
          if (result.errors > 0) throw new Error(`${server.name} ${endpoint.name}: ${result.errors} errors in run ${run}`);
          const key = `${endpoint.name}\u0000${server.name}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
          progress(
            `light endpoints: run ${run}/${options.runs} ${endpoint.name}, ${server.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuMicrosPerRequest?.toFixed(0) ?? '?'} CPU µs/request`,
          );
        }
      }
    }
    const measurements: LightMeasurement[] = [];
    for (const endpoint of LIGHT_ENDPOINTS) {
      for (const server of servers) {
        const serverRuns = runs.get(`${endpoint.name}\u0000${server.name}`) ?? [];
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
        });
      }
    }
    return {
      connections: options.connections,
      secondsPerRun: options.seconds,
      servers: servers.map((server) => server.name),
      measurements,
      responseBytes,
      gatewayLogBytes: statSync(gatewayLog).size,
      gatewayPeakRssMiB: peakRssMiB(servers[0]!.process.pid),
    };
  } finally {
    await Promise.all(servers.map((server) => server.process.stop()));
  }
}
