import type { z } from 'zod';

type ConfigurationProblem = { variable: string; message: string };

/** Thrown once at boot with every bad variable, so an operator fixes them in one pass. */
export class ConfigurationError extends Error {
  readonly problems: readonly ConfigurationProblem[];

  constructor(problems: readonly ConfigurationProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((problem) => `  - ${problem.variable}: ${problem.message}`).join('\n'),
    );
    this.name = 'ConfigurationError';
    this.problems = problems;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Parses the process environment against a zod object schema whose keys are the variable names.
 * Empty strings count as unset, so `FOO= node app` falls back to the default like an absent FOO.
 */
export function parseEnvironment<Schema extends z.ZodType>(schema: Schema, environment: Record<string, string | undefined>): Readonly<z.output<Schema>> {
  const cleaned: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && value.trim() !== '') cleaned[name] = value.trim();
  }
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => ({
      variable: issue.path.length > 0 ? issue.path.map(String).join('.') : '(environment)',
      message: issue.message,
    }));
    throw new ConfigurationError(problems);
  }
  return deepFreeze(result.data);
}
