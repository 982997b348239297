import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summaryLineOf } from './bench-process.ts';

export const HAS_WRK = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

export interface WrkRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Non-2xx/3xx answers plus socket errors: a run with any is not a valid measurement. */
  errors: number;
}

const luaString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/**
 * The request, and a `done` hook that prints wrk's own summary as one JSON line (latency in µs
 * from its full histogram, not the rounded text table).
 */
function luaScript(request: WrkRequest): string {
  return [
    `wrk.method = ${luaString(request.method)}`,
    ...(request.body === undefined ? [] : [`wrk.body = ${luaString(request.body)}`]),
    ...Object.entries(request.headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK_JSON {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"max":%d,"errors":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,',
    '    e.connect + e.read + e.write + e.status + e.timeout))',
    'end',
    '',
  ].join('\n');
}

/** One wrk run: one thread (it has a core of its own), `connections` keep-alive connections. */
export async function runWrk(options: {
  request: WrkRequest;
  connections: number;
  seconds: number;
  cpus?: string;
  scriptDir: string;
  name: string;
}): Promise<WrkResult> {
  const script = join(options.scriptDir, `${options.name.replace(/[^a-z0-9]+/gi, '-')}.lua`);
  writeFileSync(script, luaScript(options.request));
  const summary = await summaryLineOf(options.cpus, 'wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '5s', '-s', script, options.request.url], 'WRK_JSON ');
  const raw = JSON.parse(summary) as { requests: number; micros: number; p50: number; p99: number; max: number; errors: number };
  const seconds = raw.micros / 1e6;
  return {
    requests: raw.requests,
    seconds,
    requestsPerSecond: raw.requests / seconds,
    p50Ms: raw.p50 / 1000,
    p99Ms: raw.p99 / 1000,
    maxMs: raw.max / 1000,
    errors: raw.errors,
  };
}
