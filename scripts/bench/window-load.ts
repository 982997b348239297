import { percentile } from './stats.ts';

/** One answered (or failed) request of a closed loop, times from performance.now(). */
export interface RequestSample {
  finishedAt: number;
  latencyMs: number;
  /** HTTP status (with the error code of a refusal: `429 rate_limited`), or 'network error'. */
  status: string;
  /** `X-Card-Render` of a 200: `new`, or `reused` when an identical request's render answered it. */
  render?: string;
}

export interface WindowSummary {
  /** Successful answers (200) that finished inside the window. */
  cards: number;
  seconds: number;
  cardsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  /** Every answer that was not a 200 inside the window, by status. */
  failures: Record<string, number>;
  /** 200s answered from another request's render (`X-Card-Render: reused`): none when every body is distinct. */
  reused: number;
}

/**
 * The requests that finished in [startMs, endMs): throughput counts 200s only, latencies are those
 * of the 200s. Requests that finished before the window (warm-up) or after it (drain) are left out.
 */
export function summarizeWindow(samples: readonly RequestSample[], startMs: number, endMs: number): WindowSummary {
  if (!(endMs > startMs)) throw new Error('the measurement window must have a positive length');
  const inside = samples.filter((sample) => sample.finishedAt >= startMs && sample.finishedAt < endMs);
  const ok = inside.filter((sample) => sample.status === '200');
  const failures: Record<string, number> = {};
  for (const sample of inside) if (sample.status !== '200') failures[sample.status] = (failures[sample.status] ?? 0) + 1;
  const seconds = (endMs - startMs) / 1000;
  const latencies = ok.map((sample) => sample.latencyMs);
  const reused = ok.filter((sample) => sample.render === 'reused').length;
  return { cards: ok.length, seconds, cardsPerSecond: ok.length / seconds, p50Ms: percentile(latencies, 0.5), p95Ms: percentile(latencies, 0.95), failures, reused };
}

/** The same headers on every request, or the n-th request's (e.g. API keys taking turns). */
export type RequestHeaders = Record<string, string> | ((sequence: number) => Record<string, string>);
const headersOf = (headers: RequestHeaders, sequence: number) => (typeof headers === 'function' ? headers(sequence) : headers);

export interface ClosedLoop {
  samples: RequestSample[];
  /** Stops sending; resolves once every client's last request has been answered. */
  stop(): Promise<void>;
}

/**
 * `clients` closed-loop clients: each POSTs, reads the whole answer and POSTs again, without pause,
 * until stopped. `body(n)` is the n-th request's body (distinct per request for new cards).
 */
export function startClosedLoop(options: { url: string; headers: RequestHeaders; body: (sequence: number) => string; clients: number; requestTimeoutMs: number }): ClosedLoop {
  const samples: RequestSample[] = [];
  let stopped = false;
  let sequence = 0;
  const client = async () => {
    while (!stopped) {
      const body = options.body(sequence);
      const headers = headersOf(options.headers, sequence);
      sequence += 1;
      const started = performance.now();
      let status = 'network error';
      let render: string | undefined;
      try {
        const response = await fetch(options.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.requestTimeoutMs) });
        const answer = await response.arrayBuffer();
        status = String(response.status);
        // A refusal is told apart by its error code (a 429 may be a rate limit, a quota or a card slot).
        if (response.status !== 200) status += ` ${/"code":"([a-z_]+)"/.exec(Buffer.from(answer).toString('utf8'))?.[1] ?? ''}`.trimEnd();
        render = response.headers.get('x-card-render') ?? undefined;
      } catch {
        // Recorded as a network error (a timeout included).
      }
      const finishedAt = performance.now();
      samples.push({ finishedAt, latencyMs: finishedAt - started, status, ...(render === undefined ? {} : { render }) });
    }
  };
  const running = Promise.all(Array.from({ length: options.clients }, () => client()));
  return {
    samples,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/**
 * An open loop: requests at `requestsPerSecond` whether or not the earlier ones were answered, so
 * gateways compared at one offered rate serve the same cards per second, each partly idle (a closed
 * loop gives each as many as it can answer). Same samples as startClosedLoop; `body(n)` as there.
 */
export function startPacedLoop(options: { url: string; headers: RequestHeaders; body: (sequence: number) => string; requestsPerSecond: number; requestTimeoutMs: number }): ClosedLoop {
  const samples: RequestSample[] = [];
  const inFlight = new Set<Promise<void>>();
  let sequence = 0;
  const send = () => {
    const body = options.body(sequence);
    const headers = headersOf(options.headers, sequence);
    sequence += 1;
    const started = performance.now();
    const sent = (async () => {
      let status = 'network error';
      let render: string | undefined;
      try {
        const response = await fetch(options.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.requestTimeoutMs) });
        const answer = await response.arrayBuffer();
        status = String(response.status);
        if (response.status !== 200) status += ` ${/"code":"([a-z_]+)"/.exec(Buffer.from(answer).toString('utf8'))?.[1] ?? ''}`.trimEnd();
        render = response.headers.get('x-card-render') ?? undefined;
      } catch {
        // Recorded as a network error (a timeout included).
      }
      const finishedAt = performance.now();
      samples.push({ finishedAt, latencyMs: finishedAt - started, status, ...(render === undefined ? {} : { render }) });
    })();
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };
  const start = performance.now();
  // Requests due since the last tick go out together; a 5 ms tick is finer than any rate compared here.
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * options.requestsPerSecond);
    while (sequence < due) send();
  }, 5);
  return {
    samples,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
