import { z } from 'zod';

/** A Discord id: a snowflake of 17 to 20 digits (ids issued from 2015 until far in the future). */
const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

/** Digit strings of `max.length` digits that are at most `max`, as a regex alternation (for the document). */
function digitsAtMost(max: string): string {
  const branches = [...max].flatMap((digit, index) => {
    if (digit === '0') return [];
    const below = digit === '1' ? '0' : `[0-${Number(digit) - 1}]`;
    const rest = max.length - index - 1;
    return [`${max.slice(0, index)}${below}${rest > 0 ? `\\d{${rest}}` : ''}`];
  });
  return [...branches, max].join('|');
}

const MAX_SNOWFLAKE = (1n << 64n) - 1n;

/** A Discord id of some kind (`user`, `server`): its error message names the kind. */
export function discordIdSchema(kind: string) {
  const error = `must be a Discord ${kind} id: 17 to 20 digits`;
  return (
    z
      .string({ error })
      // abort: zod runs later checks after a failed one, which reported the same problem twice.
      .regex(SNOWFLAKE_PATTERN, { error, abort: true })
      .refine((text) => BigInt(text) <= MAX_SNOWFLAKE, { error })
      // The document states both checks as one pattern: 17-19 digits, or 20 digits up to 2^64 - 1.
      .meta({ pattern: `^(\\d{17,19}|${digitsAtMost(MAX_SNOWFLAKE.toString())})$` })
  );
}

export const snowflakeSchema = discordIdSchema('user');

/** Discord's epoch: the first second of 2015, in milliseconds since the UNIX epoch. */
const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** A Discord id (snowflake) carries its creation time in its top 42 bits. */
export function snowflakeCreatedAt(id: string): Date {
  if (!/^\d{1,20}$/.test(id)) throw new RangeError(`not a snowflake: ${id}`);
  return new Date(Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/**
 * How far past "now" an id's timestamp may be: Discord's clock and ours drift apart a little, and an
 * id minted a moment ago must never be refused. An hour is far more than any real skew and far less
 * than the decades a made-up id such as 99999999999999999999 claims.
 */
const SNOWFLAKE_CLOCK_SKEW_MS = 60 * 60 * 1000;

/**
 * Adds an issue when a snowflake's timestamp lies in the future (beyond the skew): no such id has
 * been issued, and drawing it would print a creation date such as "Apr 10, 2108". Checked where a
 * request enters (the gateway, with its clock), not by renderers, whose clocks may differ.
 */
export function refuseFutureSnowflake(id: string, nowMs: number, context: z.RefinementCtx, path: PropertyKey[] = []): void {
  const created = snowflakeCreatedAt(id).getTime();
  if (created > nowMs + SNOWFLAKE_CLOCK_SKEW_MS) {
    context.addIssue({ code: 'custom', path, input: id, message: `is a Discord id from the future (${new Date(created).toISOString()}): no such id has been issued yet` });
  }
}
