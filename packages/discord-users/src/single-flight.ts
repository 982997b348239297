export interface SingleFlight<T> {
  /** Runs `work` unless a run for `key` is in flight, in which case that run's promise is returned. */
  run(key: string, work: () => Promise<T>): Promise<T>;
  has(key: string): boolean;
}

/**
 * Concurrent callers with the same key share one run of the work. The key is forgotten once the
 * work settles, so neither a result nor a failure outlives it (caching is somebody else's job).
 */
export function createSingleFlight<T>(): SingleFlight<T> {
  const inFlight = new Map<string, Promise<T>>();
  return {
    run(key, work) {
      const running = inFlight.get(key);
      if (running) return running;
      const started = work().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    has: (key) => inFlight.has(key),
  };
}
