import { anyCasePattern } from '@utility-api/render-jobs';
import { z } from 'zod';

/**
 * Query values arrive as text. These fields parse them strictly (no `Number(" 1e3 ")` surprises)
 * while their output schemas stay typed, which is what the OpenAPI document shows.
 */

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function requiredOr(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);
}

function parseNumberText(value: unknown): unknown {
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
}

export function queryNumber(options: { min: number; max: number; description: string; example?: number }) {
  const expectation = `must be a number from ${options.min} to ${options.max}`;
  return z.preprocess(
    parseNumberText,
    z
      .number({ error: requiredOr(expectation) })
      .min(options.min, { error: expectation })
      .max(options.max, { error: expectation })
      .meta({ description: options.description, ...(options.example === undefined ? {} : { examples: [options.example] }) }),
  );
}

export function queryBoolean(description: string) {
  const expectation = 'must be true or false';
  return z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const lowered = value.toLowerCase();
      return lowered === 'true' ? true : lowered === 'false' ? false : value;
    },
    z.boolean({ error: requiredOr(expectation) }).meta({ description }),
  );
}

export function queryEnum<const Values extends readonly [string, ...string[]]>(
  values: Values,
  options: { description: string; caseInsensitive?: boolean },
) {
  const expectation = `must be one of ${values.join(', ')}`;
  // The document says what the server takes: the listed values, or, case-insensitive, a pattern of them.
  const documented = options.caseInsensitive ? { pattern: anyCasePattern(values), enum: undefined } : {};
  return z.preprocess(
    (value) => {
      if (!options.caseInsensitive || typeof value !== 'string') return value;
      return values.find((candidate) => candidate.toLowerCase() === value.toLowerCase()) ?? value;
    },
    z.enum(values, { error: requiredOr(expectation) }).meta({ description: options.description, ...documented }),
  );
}
