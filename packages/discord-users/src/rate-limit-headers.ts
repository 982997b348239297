import { z } from 'zod';

/** How long Discord asks us to back off after a 429 when it says nothing usable. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

const rateLimitBody = z.object({
  retry_after: z.number().nonnegative().optional(),
  global: z.boolean().optional(),
});

export interface RateLimitAnswer {
  retryAfterMs: number;
  global: boolean;
}

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
export function readRateLimitAnswer(headers: Headers, body: unknown): RateLimitAnswer {
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
