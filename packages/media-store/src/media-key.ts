import { isMediaKey } from '@utility-api/render-jobs';
import { InvalidMediaKeyError } from './storage-errors.ts';

/**
 * Every store operation checks its key before any I/O, so a caller that forgot to validate user
 * input can never reach a path outside the store or an unexpected object name.
 */
export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new InvalidMediaKeyError(key);
}
