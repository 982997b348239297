import { accessSync, constants, statSync } from 'node:fs';
import type { Lifecycle, Logger } from '@utility-api/infra';
import { KeyStoreDataError } from '../auth/api-keys.ts';
import { ApiError } from '../http/api-error.ts';
import type { AccountStore } from './account-store.ts';

/**
 * How often the gateway looks at its SQLite database file, to log the moment it goes away. Writes
 * and `/readyz` look for themselves, on every write and every probe (a stat and an access check,
 * microseconds), so a deleted file fails readiness at the next probe and a write at once; the log
 * line follows within this interval.
 */
export const STORE_WATCH_INTERVAL_MS = 1000;

/**
 * `503 store_unavailable`: the account store cannot take writes (its file deleted, replaced or not
 * writable, Redis not answering). Its public message names no path; the reason is its cause, for the log.
 */
export class StoreUnavailableError extends ApiError {
  constructor(reason: string, cause?: unknown) {
    super('store_unavailable', 'The account store is unavailable; nothing was changed. Please retry shortly.', { cause: cause ?? new Error(reason) });
  }
}

const fileId = (path: string) => {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats && { dev: stats.dev, ino: stats.ino };
};

/**
 * Whether the database file this process has open is still the one at its path. SQLite keeps
 * writing to an open file that was deleted or renamed over: every change would be reported done
 * and gone at the next start. The open file's inode is taken when the store opens (and the WAL's
 * when first seen); SQLite holds both open, so their numbers cannot be reused meanwhile: the path
 * gone or holding another inode means this process no longer writes to the database there. No
 * second descriptor is held on the file: closing one would drop SQLite's POSIX locks on it.
 */
export class StoreFileWatch {
  readonly #path: string;
  readonly #database: { dev: number; ino: number };
  #wal: { dev: number; ino: number } | undefined;

  constructor(path: string) {
    this.#path = path;
    const database = fileId(path);
    if (database === undefined) throw new Error(`${path} is not there right after opening it`);
    this.#database = database;
  }

  /** Why the database cannot take writes now, or undefined when it can. */
  problem(): string | undefined {
    const path = this.#path;
    const database = fileId(path);
    if (database === undefined) return `the database file ${path} was deleted while open: changes would be lost at the next start`;
    if (database.ino !== this.#database.ino || database.dev !== this.#database.dev) return `the database file ${path} was replaced by another file while open (a restore or a move): this process still writes to the old one`;
    const wal = fileId(`${path}-wal`);
    if (this.#wal === undefined) this.#wal = wal;
    else if (wal === undefined || wal.ino !== this.#wal.ino || wal.dev !== this.#wal.dev) return `the write-ahead log ${path}-wal was deleted or replaced while open: changes would be lost at the next start`;
    try {
      // Root passes a mode check; an immutable file (chattr +i) or a read-only mount fails it for root too.
      accessSync(path, constants.W_OK);
    } catch (error) {
      return `the database file ${path} is not writable (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
    return undefined;
  }
}

/** Throws StoreUnavailableError when the store cannot take writes (a readiness probe). */
export function storeUsable(store: AccountStore): void {
  const problem = store.unavailable();
  if (problem !== undefined) throw new StoreUnavailableError(problem);
}

/**
 * Looks at the store every STORE_WATCH_INTERVAL_MS and logs when it becomes unusable (an error:
 * writes answer 503 and readiness fails until the file is back and the gateway restarted) and
 * when it is usable again. Stopped by the lifecycle.
 */
export function watchAccountStore(store: AccountStore, logger: Logger, lifecycle: Lifecycle): void {
  let last: string | undefined;
  const timer = setInterval(() => {
    const problem = store.unavailable();
    if (problem === last) return;
    if (problem !== undefined) logger.error({ store: store.location, problem }, `account store unavailable: ${problem}; writes answer 503 store_unavailable and /readyz fails. Put the database back (or restore it) and restart the gateway.`);
    else logger.info({ store: store.location }, 'account store usable again');
    last = problem;
  }, STORE_WATCH_INTERVAL_MS);
  timer.unref();
  lifecycle.onClose('account store watch', async () => clearInterval(timer));
}

/**
 * The store as the account area and the template endpoints use it: a store that fails (Redis not
 * answering, the SQLite file gone) is `503 store_unavailable` with Retry-After, as the API's other
 * answers say it, never a 500. Answers the store gave (its own API errors) and damaged records
 * (KeyStoreDataError, a 500 worth a report) pass as they are.
 */
export function answeringUnavailable<Store extends object>(store: Store): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result = (value as (...args: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw asUnavailable(error);
              })
            : result;
        } catch (error) {
          throw asUnavailable(error);
        }
      };
    },
  });
}

function asUnavailable(error: unknown): unknown {
  if (error instanceof ApiError || error instanceof KeyStoreDataError) return error;
  return new StoreUnavailableError(`the account store failed: ${error instanceof Error ? error.message : String(error)}`, error);
}
