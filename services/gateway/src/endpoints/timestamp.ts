import type { Clock } from '../runtime/clock.ts';

/** The `timestamp` field several results carry: when the answer was produced, ISO 8601 UTC. */
export function isoTimestamp(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
