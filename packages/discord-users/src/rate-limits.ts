import { z } from 'zod';
import { DiscordUnavailableError } from './discord-user.ts';

/**
 * When this process may next call Discord. A global 429 stops every route; a per-route 429, or a
 * success that used the bucket's last request, stops the user route. We only call one route and
 * its bucket is shared by all user ids (users are not a top-level resource), so one route timer
 * is enough.
 */
export type RateLimitGate = ReturnType<typeof createRateLimitGate>;

const MAX_WAIT_ROUNDS = 5;

export function createRateLimitGate(clock: { now: () => number; sleep: (ms: number) => Promise<void> }) {
  let globalUntil = 0;
  let routeUntil = 0;
  const extend = (until: number, milliseconds: number) => Math.max(until, clock.now() + Math.max(0, milliseconds));
  return {
    /**
     * Waits until a call is allowed, or throws 503 at once when that is further away than
     * `maxWaitMs`: better to tell the client when to come back than to hold its request.
     */
    async waitForTurn(maxWaitMs: number): Promise<void> {
      // Again after each sleep, because another caller's 429 may push the pause further meanwhile;
      // bounded, so a sleep that does not advance the clock cannot spin forever.
      for (let round = 0; round < MAX_WAIT_ROUNDS; round += 1) {
        const waitMs = Math.max(globalUntil, routeUntil) - clock.now();
        if (waitMs <= 0) return;
        if (waitMs > maxWaitMs) {
          throw new DiscordUnavailableError(503, 'Discord is rate limiting us; try again later', { retryAfterSeconds: Math.ceil(waitMs / 1000) });
        }
        await clock.sleep(waitMs);
      }
      throw new DiscordUnavailableError(503, 'Discord is rate limiting us; try again later', { retryAfterSeconds: 1 });
    },
    pauseRoute(milliseconds: number): void {
      routeUntil = extend(routeUntil, milliseconds);
    },
    pauseGlobally(milliseconds: number): void {
      globalUntil = extend(globalUntil, milliseconds);
    },
  };
}

/** How long Discord asks us to back off after a 429 when it says nothing usable. */
const DEFAULT_RETRY_AFTER_MS = 1000;

const rateLimitBody = z.object({ retry_after: z.number().nonnegative().optional(), global: z.boolean().optional() });

function secondsHeader(headers: Headers, name: string): number | undefined {
  const text = headers.get(name);
  if (text === null || text.trim() === '') return undefined;
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * What a 429 asks for. The body's `retry_after` (seconds, with a fraction) is the precise value;
 * the `Retry-After` header (whole seconds) is the fallback, and the only one a Cloudflare-level
 * 429 with an HTML body carries.
 */
export function readRateLimitAnswer(headers: Headers, body: unknown): { retryAfterMs: number; global: boolean } {
  const parsed = rateLimitBody.safeParse(body);
  const fromBody = parsed.success ? parsed.data : {};
  const seconds = fromBody.retry_after ?? secondsHeader(headers, 'retry-after');
  const global = fromBody.global === true || headers.get('x-ratelimit-scope')?.toLowerCase() === 'global' || headers.get('x-ratelimit-global')?.toLowerCase() === 'true';
  return { retryAfterMs: seconds === undefined ? DEFAULT_RETRY_AFTER_MS : seconds * 1000, global };
}

/**
 * After a successful call, how long until the route's bucket refills, when that call used its last
 * request (`X-RateLimit-Remaining: 0`); otherwise `undefined` and the next call may go at once.
 */
export function exhaustedBucketWaitMs(headers: Headers): number | undefined {
  if (headers.get('x-ratelimit-remaining')?.trim() !== '0') return undefined;
  const seconds = secondsHeader(headers, 'x-ratelimit-reset-after');
  return seconds === undefined ? undefined : seconds * 1000;
}
