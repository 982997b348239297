/** Who a valid key belongs to; never the key itself. */
export interface ApiKeyIdentity {
  /** Stable, non-secret id of the key (a hash prefix), safe to log and to key rate limits by. */
  id: string;
  name: string;
}

/**
 * Where keys live. Implementations keep only hashes and must compare in constant time; a later
 * Redis-backed store sits behind the same interface.
 */
export interface ApiKeyStore {
  verify(presentedKey: string): Promise<ApiKeyIdentity | undefined>;
}
