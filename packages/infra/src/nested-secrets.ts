/** Property names censored wherever they appear one level into a logged object (`*.apiKey`). */
const NESTED_SECRET_KEYS = ['apiKey', 'token'] as const;

export const CENSOR = '[redacted]';

function holdsSecret(value: object): boolean {
  for (const key of NESTED_SECRET_KEYS) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** A copy with the same prototype and own properties (an Error stays an Error), secrets censored. */
function censoredCopy(value: object): object {
  const descriptors = Object.getOwnPropertyDescriptors(value);
  // Newer V8 (Node 22+) keeps an error's `stack` behind an accessor bound to the original object:
  // copied as is it would read undefined, so the copy gets the text itself.
  if (value instanceof Error) descriptors.stack = { value: value.stack, enumerable: false, writable: true, configurable: true };
  const copy = Object.create(Object.getPrototypeOf(value) as object | null, descriptors) as object;
  for (const key of NESTED_SECRET_KEYS) {
    if (Object.hasOwn(copy, key)) Object.defineProperty(copy, key, { value: CENSOR, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/**
 * What pino's `*.apiKey` and `*.token` redact paths do, as a log/bindings formatter: pino runs a
 * wildcard path's redactor on every property of every line (primitives included, with fresh
 * allocations each time), which was the largest cost of an access-log line. This looks at each
 * property once and copies only the objects that hold a secret; the logged object itself is
 * never changed.
 */
export function censorNestedSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let result: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (value === null || typeof value !== 'object' || !holdsSecret(value)) continue;
    result ??= { ...object };
    result[key] = censoredCopy(value);
  }
  return result ?? object;
}
