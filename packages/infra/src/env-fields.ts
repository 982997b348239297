import { z } from 'zod';

/** Environment values are text; these helpers turn them into typed values with readable errors. */

export function envInteger(options: { min: number; max: number; default: number }) {
  return z
    .string()
    .regex(/^-?\d+$/, { error: `must be a whole number from ${options.min} to ${options.max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(options.min, { error: `must be at least ${options.min}` })
        .max(options.max, { error: `must be at most ${options.max}` }),
    )
    .optional()
    .transform((value) => value ?? options.default);
}

export function envBoolean(defaultValue: boolean) {
  return z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'must be one of true, false, 1, 0, yes, no, on, off',
    })
    .optional()
    .transform((value) => (value === undefined ? defaultValue : ['true', '1', 'yes', 'on'].includes(value)));
}

export function envUrl(protocols: readonly string[]) {
  return z.string().refine(
    (text) => {
      try {
        return protocols.includes(new URL(text).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { error: `must be an absolute ${protocols.join(' or ')} URL` },
  );
}

export function envCommaList() {
  return z
    .string()
    .optional()
    .transform((text) =>
      (text ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    );
}
