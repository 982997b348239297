/**
 * Why the store could not serve a request:
 * - `unreachable`: connection refused or reset, DNS failure;
 * - `timeout`: no answer within the request deadline;
 * - `server_error`: the object store answered 5xx or something unparseable;
 * - `rejected`: the store refused us (credentials, permissions, missing bucket): a configuration problem;
 * - `io_error`: the media directory cannot be read or written;
 * - `closed`: the store was closed during shutdown.
 */
export type StorageUnavailableReason = 'unreachable' | 'timeout' | 'server_error' | 'rejected' | 'io_error' | 'closed';

const PUBLIC_MESSAGES: Record<StorageUnavailableReason, string> = {
  unreachable: 'media storage is unreachable',
  timeout: 'media storage did not answer in time',
  server_error: 'media storage answered with a server error',
  rejected: 'media storage refused the request',
  io_error: 'media storage could not read or write its files',
  closed: 'media storage is shut down',
};

/**
 * The store cannot serve the request; the gateway answers 503. `message` is public-safe (no host,
 * path, bucket or credential); the underlying error is kept in `cause` for logs.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  readonly reason: StorageUnavailableReason;

  constructor(reason: StorageUnavailableReason, options?: { cause?: unknown }) {
    super(PUBLIC_MESSAGES[reason], options);
    this.reason = reason;
  }
}

/** A programming error: a store was called with something that is not a media key (see `isMediaKey`). */
export class InvalidMediaKeyError extends Error {
  override readonly name = 'InvalidMediaKeyError';

  constructor(key: unknown) {
    const shown = typeof key === 'string' ? JSON.stringify(key.slice(0, 64)) : typeof key;
    super(`not a media key (lowercase UUID expected): ${shown}`);
  }
}
