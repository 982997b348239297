/** Wall-clock time, injected so tests can pin "now" and date arithmetic stays reproducible. */
export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(epochMilliseconds: number): Clock {
  return { now: () => epochMilliseconds };
}
