import { InvalidMediaKeyError } from './storage-errors.ts';

const MEDIA_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A lowercase canonical UUID (8-4-4-4-12 hex) and nothing else: no dots, slashes or extension. */
export function isMediaKey(text: string): boolean {
  return typeof text === 'string' && MEDIA_KEY.test(text);
}

/**
 * Every store operation checks its key before any I/O, so a caller that forgot to validate user
 * input can never reach a path outside the store or an unexpected object name.
 */
export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new InvalidMediaKeyError(key);
}

/** The file or object name of a key: `<uuid>.png`. */
export function mediaObjectName(key: string): string {
  return `${key}.png`;
}

/** The key a file or object name stands for, or undefined for any other name (`..`, other extensions). */
export function mediaKeyOfName(name: string): string | undefined {
  const key = name.slice(0, -'.png'.length);
  return name.endsWith('.png') && isMediaKey(key) ? key : undefined;
}
