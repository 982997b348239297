/**
 * The answers a baseline server gives: the bytes the gateway itself returned for the same
 * request, captured at the start of the run. Passed to the baseline processes as JSON in
 * BENCH_ROUTES.
 */
export interface CannedRoute {
  method: 'GET' | 'POST';
  path: string;
  /** The gateway's JSON response body for the benchmarked request. */
  body: string;
}

export function cannedRoutesFromEnv(): CannedRoute[] {
  const text = process.env.BENCH_ROUTES;
  if (!text) throw new Error('BENCH_ROUTES is not set');
  return JSON.parse(text) as CannedRoute[];
}

export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error('PORT must be a port number');
  return port;
}
