import type { KeyRateLimits } from '../rate-limits/rate-budget.ts';

/** Who a valid key belongs to; never the key itself. */
export interface ApiKeyIdentity {
  /**
   * Stable, non-secret id of the key, safe to log and to key rate limits by: `uk_live_<id>` for a
   * managed key, `key_<hash prefix>` for a bootstrap key from `API_KEYS`.
   */
  id: string;
  name: string;
  /** Budgets this key has instead of the configured ones. */
  limits?: KeyRateLimits;
}

/**
 * Where keys live. Implementations keep only hashes and compare in constant time: the bootstrap
 * keys from `API_KEYS` (StaticApiKeyStore) and managed keys in Redis or a JSON file
 * (ManagedApiKeyStore), combined by CombinedApiKeyStore.
 */
export interface ApiKeyStore {
  verify(presentedKey: string): Promise<ApiKeyIdentity | undefined>;
}
