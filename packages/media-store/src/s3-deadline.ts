import { isStaleConnection } from './s3-errors.ts';
import { StorageUnavailableError } from './storage-errors.ts';

export interface DeadlineCall<T> {
  /** One attempt at the request. */
  attempt: () => Promise<T>;
  /** Releases a result that arrived after the deadline (e.g. destroys a response stream nobody will read). */
  discardLate?: (value: T) => void;
}

/**
 * Runs a storage call under one deadline, whatever the client does inside (retries, region
 * look-ups, a server that accepts and never answers). A call that fails on a stale keep-alive
 * socket is tried once more within the same deadline; every call we make is idempotent.
 * Rejects with the raw error (callers classify it) or `StorageUnavailableError('timeout')`.
 */
export function withDeadline<T>(timeoutMs: number, call: DeadlineCall<T>): Promise<T> {
  const startedAt = Date.now();
  const work = call.attempt().catch((error: unknown) => {
    if (isStaleConnection(error) && Date.now() - startedAt < timeoutMs) return call.attempt();
    throw error;
  });
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new StorageUnavailableError('timeout', { cause: new Error(`no answer within ${timeoutMs} ms`) }));
    }, timeoutMs);
    work.then(
      (value) => {
        if (settled) {
          call.discardLate?.(value);
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      // Typed Error only for the linter: whatever was thrown is passed on untouched.
      (error: Error) => {
        // After the deadline the caller has moved on; the late failure has nobody to tell.
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
