/** Nearest-rank percentile of unsorted values (`quantile` 0..1); NaN when there are none. */
export function percentile(values: readonly number[], quantile: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(quantile * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** The run whose `key` is the median of the runs (an odd count gives a real run, not an average). */
export function medianRun<T>(runs: readonly T[], key: (run: T) => number): T {
  if (runs.length === 0) throw new Error('no runs');
  const sorted = [...runs].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Where a set of measurements lies: its median, quartiles (nearest rank) and extremes. */
export interface Spread {
  n: number;
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  return {
    n: values.length,
    median: median(values),
    q1: percentile(values, 0.25),
    q3: percentile(values, 0.75),
    min: values.length === 0 ? Number.NaN : Math.min(...values),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}
