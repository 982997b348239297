import type { KeyScope } from '../http/key-scopes.ts';
import { ApiError } from '../http/api-error.ts';
import type { KeyRateLimits } from './rate-spec.ts';
import { generateKeyId, generateManagedKey, hashApiKey, managedKeyPrefix, type ApiKeyRecord } from './api-keys.ts';

export type KeyInsertOutcome = 'inserted' | 'taken' | 'full';

/** Every record at one moment, with a token that changes whenever any record does. */
export interface KeyRecordsSnapshot {
  version: string;
  records: readonly ApiKeyRecord[];
}

/**
 * Where managed keys are kept: Redis in distributed mode, SQLite in embedded mode (part of the
 * AccountStore). The verifier only reads (`version` is polled, `snapshot` reloaded when it
 * changed); the account area and `./run keys` write.
 */
export interface ApiKeyRecords {
  readonly kind: 'redis' | 'sqlite';
  /** For messages: where Redis is, without credentials, or the file path. */
  readonly location: string;
  /** Cheap: one GET in Redis, one indexed read in SQLite. */
  version(): Promise<string>;
  snapshot(): Promise<KeyRecordsSnapshot>;
  /**
   * Adds a record: `taken` when its id is, `full` when `maxActive` is given and the record's account
   * (no accountId: the local owner) already has that many keys not revoked. The count and the
   * insert are one step of the store (a SQLite transaction, a Redis script), so writers racing
   * from any number of gateways end at exactly `maxActive`.
   */
  insert(record: ApiKeyRecord, maxActive?: number): Promise<KeyInsertOutcome>;
  /** Marks a record revoked; returns it as it now is, or undefined when there is no such id. */
  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined>;
}

const ID_ATTEMPTS = 5;

/** `./run keys create`: a new key, of which only the hash is stored; the key itself is returned once. */
export async function createApiKey(
  records: ApiKeyRecords,
  options: { name: string; limits?: KeyRateLimits; now: Date; accountId?: string; scopes?: readonly KeyScope[]; maxActive?: number },
): Promise<{ key: string; record: ApiKeyRecord }> {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt += 1) {
    const id = generateKeyId();
    const key = generateManagedKey(id);
    const record: ApiKeyRecord = {
      id,
      name: options.name,
      prefix: managedKeyPrefix(id),
      hash: hashApiKey(key).toString('hex'),
      createdAt: options.now.toISOString(),
      revokedAt: null,
      ...(options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {}),
      ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
      ...(options.scopes === undefined || options.scopes.length === 0 ? {} : { scopes: [...options.scopes] }),
    };
    const outcome = await records.insert(record, options.maxActive);
    if (outcome === 'inserted') return { key, record };
    if (outcome === 'full') throw new ApiError('too_many_keys', `An account may have ${options.maxActive} keys that are not revoked; revoke one you no longer use first.`);
  }
  throw new Error(`no free key id after ${ID_ATTEMPTS} attempts`);
}

export async function listApiKeys(records: ApiKeyRecords): Promise<ApiKeyRecord[]> {
  const { records: all } = await records.snapshot();
  return [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
