import type { z } from 'zod';
import type { FieldProblem } from '../errors/api-error.ts';

export function problemsFromZod(error: z.ZodError, location: FieldProblem['in']): FieldProblem[] {
  return error.issues.map((issue) => ({
    in: location,
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : location,
    message: issue.message,
  }));
}

/**
 * Repeated query parameters (`?count=1&count=2`) are ambiguous, so a parameter the endpoint reads
 * must appear once. Parameters it does not read are ignored, whatever their form.
 */
export function singleValuedQuery(
  query: Record<string, string | string[] | undefined>,
  knownNames: readonly string[],
): { values: Record<string, string>; problems: FieldProblem[] } {
  const values: Record<string, string> = {};
  const problems: FieldProblem[] = [];
  for (const name of knownNames) {
    const value = query[name];
    if (Array.isArray(value)) problems.push({ in: 'query', field: name, message: 'must be given only once' });
    else if (value !== undefined) values[name] = value;
  }
  return { values, problems };
}
