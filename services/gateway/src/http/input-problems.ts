import type { z } from 'zod';
import type { FieldProblem } from '../errors/api-error.ts';

export function problemsFromZod(error: z.ZodError, location: FieldProblem['in']): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is a problem with that key, not with the object holding it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ in: location, field: [...path, key].join('.'), message: 'is not a known field' }));
    }
    return [{ in: location, field: path.length > 0 ? path.join('.') : location, message: issue.message }];
  });
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
