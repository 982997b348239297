import { z } from 'zod';

/** Environment values are text; these helpers turn them into typed values with readable errors. */

export function envInteger(options: { min: number; max: number; default: number }) {
  return envOptionalInteger(options).transform((value) => value ?? options.default);
}

/** {@link envInteger} without a default: undefined when unset, for a default derived from other variables. */
export function envOptionalInteger(options: { min: number; max: number }) {
  const { min, max } = options;
  return z
    .string()
    .regex(/^-?\d+$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }))
    .optional();
}

export function envBoolean(defaultValue: boolean) {
  return z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be one of true, false, 1, 0, yes, no, on, off' })
    .optional()
    .transform((value) => (value === undefined ? defaultValue : ['true', '1', 'yes', 'on'].includes(value)));
}

export function envUrl(protocols: readonly string[]) {
  const allowed = (text: string) => URL.canParse(text) && protocols.includes(new URL(text).protocol.replace(/:$/, ''));
  return z.string().refine(allowed, { error: `must be an absolute ${protocols.join(' or ')} URL` });
}

export function envCommaList() {
  return z
    .string()
    .optional()
    .transform((text) => (text ?? '').split(',').map((item) => item.trim()).filter((item) => item.length > 0));
}
