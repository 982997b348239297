import type { KeyRateLimits } from '../rate-limits/rate-budget.ts';
import { hashApiKey } from './api-key-hash.ts';
import type { ApiKeyRecord } from './api-key-record.ts';
import type { ApiKeyRecords } from './api-key-records.ts';
import { generateKeyId, generateManagedKey, MANAGED_KEY_ID, MANAGED_KEY_PREFIX, managedKeyId, managedKeyPrefix } from './managed-key-format.ts';

export interface CreatedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

const ID_ATTEMPTS = 5;

/** The operations behind `pnpm keys`, on either backend. */
export async function createApiKey(
  records: ApiKeyRecords,
  options: { name: string; limits?: KeyRateLimits; now: Date },
): Promise<CreatedApiKey> {
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
    };
    if (await records.insert(record)) return { key, record };
  }
  throw new Error(`no free key id after ${ID_ATTEMPTS} attempts`);
}

/** `abcd1234`, `uk_live_abcd1234` or a whole key name the same record; anything else is undefined. */
export function keyIdFromReference(reference: string): string | undefined {
  const text = reference.trim();
  if (MANAGED_KEY_ID.test(text)) return text;
  if (text.startsWith(MANAGED_KEY_PREFIX) && MANAGED_KEY_ID.test(text.slice(MANAGED_KEY_PREFIX.length))) {
    return text.slice(MANAGED_KEY_PREFIX.length);
  }
  return managedKeyId(text);
}

export async function listApiKeys(records: ApiKeyRecords): Promise<ApiKeyRecord[]> {
  const { records: all } = await records.snapshot();
  return [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
