import { DiscordUnavailableError } from './discord-errors.ts';

/**
 * When this process may next call Discord. A global 429 stops every route; a per-route 429, or a
 * success that used the bucket's last request, stops the user route. We only call one route and
 * its bucket is shared by all user ids (users are not a top-level resource), so one route timer
 * is enough.
 */
export interface RateLimitGate {
  /**
   * Waits until a call is allowed, or throws 503 at once when that is further away than
   * `maxWaitMs`: better to tell the client when to come back than to hold its request.
   */
  waitForTurn(maxWaitMs: number): Promise<void>;
  pauseRoute(milliseconds: number): void;
  pauseGlobally(milliseconds: number): void;
}

const MAX_WAIT_ROUNDS = 5;

export function createRateLimitGate(clock: { now: () => number; sleep: (ms: number) => Promise<void> }): RateLimitGate {
  let globalUntil = 0;
  let routeUntil = 0;
  const extend = (until: number, milliseconds: number) => Math.max(until, clock.now() + Math.max(0, milliseconds));
  return {
    async waitForTurn(maxWaitMs) {
      // Again after each sleep, because another caller's 429 may push the pause further meanwhile;
      // bounded, so a sleep that does not advance the clock cannot spin forever.
      for (let round = 0; round < MAX_WAIT_ROUNDS; round += 1) {
        const waitMs = Math.max(globalUntil, routeUntil) - clock.now();
        if (waitMs <= 0) return;
        if (waitMs > maxWaitMs) {
          throw new DiscordUnavailableError(503, 'Discord is rate limiting us; try again later', {
            retryAfterSeconds: Math.ceil(waitMs / 1000),
          });
        }
        await clock.sleep(waitMs);
      }
      throw new DiscordUnavailableError(503, 'Discord is rate limiting us; try again later', { retryAfterSeconds: 1 });
    },
    pauseRoute(milliseconds) {
      routeUntil = extend(routeUntil, milliseconds);
    },
    pauseGlobally(milliseconds) {
      globalUntil = extend(globalUntil, milliseconds);
    },
  };
}
