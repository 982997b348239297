import type { Clock } from '../runtime/clock.ts';

/** The `timestamp` field several results carry: when the answer was produced, ISO 8601 UTC. */
export function isoTimestamp(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

/** `<n>%` with at most two decimals and no trailing zeros: 50 -> "50%", 33.333 -> "33.33%". */
export function percentText(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}
