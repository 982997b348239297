import { percentile } from './stats.ts';

export interface LoadResult {
  concurrency: number;
  requests: number;
  seconds: number;
  /** Successful answers per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status code; anything but 200 counts as a failure. */
  statuses: Record<string, number>;
  /** `X-Card-Render` of the 200s: `new` or `reused`. */
  renders: Record<string, number>;
}

/**
 * A closed loop: `concurrency` workers each send a request, wait for the whole answer and send
 * the next, until `seconds` have passed or `maxRequests` were sent. `body(n)` gives the n-th
 * request's body, so a run can ask for distinct or identical cards.
 */
export async function runRequestLoad(options: {
  url: string;
  headers: Record<string, string>;
  body: (sequence: number) => string;
  concurrency: number;
  seconds: number;
  maxRequests?: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const renders: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  let sent = 0;
  let ok = 0;
  const worker = async () => {
    while (performance.now() < deadline && sent < maxRequests) {
      const sequence = sent;
      sent += 1;
      const requestStarted = performance.now();
      let status = 'network error';
      try {
        const response = await fetch(options.url, { method: 'POST', headers: options.headers, body: options.body(sequence), signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        status = String(response.status);
        if (response.status === 200) {
          ok += 1;
          const render = response.headers.get('x-card-render') ?? 'none';
          renders[render] = (renders[render] ?? 0) + 1;
        }
      } catch {
        // Counted under its status below.
      }
      latencies.push(performance.now() - requestStarted);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  const seconds = (performance.now() - started) / 1000;
  return {
    concurrency: options.concurrency,
    requests: latencies.length,
    seconds,
    perSecond: ok / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    statuses,
    renders,
  };
}
