import type { ApiKeyRecord } from './api-key-record.ts';

/** Every record at one moment, with a token that changes whenever any record does. */
export interface KeyRecordsSnapshot {
  version: string;
  records: readonly ApiKeyRecord[];
}

/**
 * Where managed keys are kept: Redis in distributed mode, a JSON file in embedded mode. The
 * gateway only reads (`version` is polled, `snapshot` reloaded when it changed); the `pnpm keys`
 * CLI writes.
 */
export interface ApiKeyRecords {
  readonly kind: 'redis' | 'file';
  /** For messages: the Redis URL without credentials, or the file path. */
  readonly location: string;
  /** Cheap: one GET in Redis, one stat of the file. */
  version(): Promise<string>;
  snapshot(): Promise<KeyRecordsSnapshot>;
  /** Adds a record; false when its id is taken. */
  insert(record: ApiKeyRecord): Promise<boolean>;
  /** Marks a record revoked; returns it as it now is, or undefined when there is no such id. */
  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined>;
}
