import { z } from 'zod';

/**
 * Each key has two budgets: `default` for the light endpoints, and a stricter `profileImage` for
 * card renders, which cost a render slot each. A request spends from exactly one of them: the one
 * its endpoint declares (`limits.budget`), `default` otherwise. `preview` is an account's own budget
 * for the playground's previews while signed in, so designing never spends a bot's card budget.
 */
export const RATE_BUDGETS = ['default', 'profileImage', 'preview'] as const;
export type RateBudget = (typeof RATE_BUDGETS)[number];

/** Per-key overrides of the configured budgets; a budget left out uses the configured one. */
export type KeyRateLimits = Partial<Record<RateBudget, RateSpec>>;

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hour: 3600, d: 86_400, day: 86_400 };

const SPEC = /^(\d{1,9})\s*\/\s*(\d{0,6})\s*(s|sec|m|min|h|hour|d|day)$/i;
const MAX_WINDOW_SECONDS = 86_400;

export const RATE_SPEC_FORMAT = '<requests>/<window>, such as 600/60s, 60/1m or 5000/1h';

/** Reads `600/60s`, `60/1m`, `100/min` or `5000/1h`; undefined when the text is not one. */
export function parseRateSpec(text: string): RateSpec | undefined {
  const match = SPEC.exec(text.trim());
  if (!match) return undefined;
  const points = Number(match[1]);
  const count = match[2] === '' ? 1 : Number(match[2]);
  const durationSeconds = count * (UNIT_SECONDS[match[3]!.toLowerCase()] ?? 0);
  if (points < 1 || durationSeconds < 1 || durationSeconds > MAX_WINDOW_SECONDS) return undefined;
  return { points, durationSeconds };
}

/** The canonical text of a spec, as the env variables and the CLI accept it back. */
export function formatRateSpec(spec: RateSpec): string {
  return `${spec.points}/${spec.durationSeconds}s`;
}

/** A budget: at most `points` requests per fixed window of `durationSeconds`. */
export const rateSpecSchema = z.object({
  points: z.number().int().min(1),
  durationSeconds: z.number().int().min(1).max(MAX_WINDOW_SECONDS),
});
export type RateSpec = z.infer<typeof rateSpecSchema>;

/** An environment variable holding a rate spec. */
export function envRateSpec(defaultText: string) {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      const spec = parseRateSpec(text ?? defaultText);
      if (!spec) {
        context.addIssue({ code: 'custom', message: `must be ${RATE_SPEC_FORMAT} (a window of 1 s to 1 day)` });
        return z.NEVER;
      }
      return spec;
    });
}
