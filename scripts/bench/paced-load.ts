import { Agent, request } from 'node:http';
import { percentile } from './stats.ts';

/**
 * Requests at a fixed rate, whether or not the earlier ones were answered (an open loop), over a
 * pool of keep-alive connections: both servers of a comparison then serve the same requests per
 * second, each partly idle, where wrk's closed loop gives each as many as it can answer. Run as its
 * own process on the load core: `node paced-load.ts '<PacedLoadOptions as JSON>'`; prints one line
 * `PACED_JSON {...}` (PacedLoadResult).
 */
export interface PacedLoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  requestsPerSecond: number;
  seconds: number;
  connections: number;
}

export interface PacedLoadResult {
  sent: number;
  /** Answers with a 2xx status. */
  answered: number;
  /** Other statuses and socket errors: a window with any is not a valid measurement. */
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

/** How often the schedule is checked; requests due meanwhile go out together. */
const TICK_MS = 1;
/** After the last request is sent, how long its answer may take before it counts as an error. */
const DRAIN_MS = 5000;

async function runPacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let sent = 0;
  let settled = 0;
  let errors = 0;
  const send = () => {
    sent += 1;
    const started = performance.now();
    const settle = (ok: boolean) => {
      settled += 1;
      if (ok) latencies.push(performance.now() - started);
      else errors += 1;
    };
    const outgoing = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method, headers: options.headers, agent }, (response) => {
      response.resume();
      response.once('end', () => settle(response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300));
      response.once('error', () => settle(false));
    });
    outgoing.once('error', () => settle(false));
    outgoing.end(options.body);
  };
  const start = performance.now();
  const total = Math.round(options.requestsPerSecond * options.seconds);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.requestsPerSecond));
      while (sent < due) send();
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  const drainUntil = performance.now() + DRAIN_MS;
  while (settled < sent && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 10));
  agent.destroy();
  return { sent, answered: latencies.length, errors: errors + (sent - settled), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? '') as PacedLoadOptions;
  console.log(`PACED_JSON ${JSON.stringify(await runPacedLoad(options))}`);
}
