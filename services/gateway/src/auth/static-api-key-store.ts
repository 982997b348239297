import { timingSafeEqual } from 'node:crypto';
import { apiKeyId, hashApiKey } from './api-key-hash.ts';
import type { ApiKeyIdentity, ApiKeyStore } from './api-key-store.ts';

interface StoredKey {
  hash: Buffer;
  identity: ApiKeyIdentity;
}

/**
 * Keys from configuration (`API_KEYS`). Only their hashes are kept, and a presented key is hashed
 * and compared against every stored hash with `timingSafeEqual`, without stopping at a match, so
 * the time taken says nothing about which key (if any) matched.
 */
export class StaticApiKeyStore implements ApiKeyStore {
  readonly #keys: readonly StoredKey[];

  constructor(keys: readonly string[]) {
    this.#keys = keys.map((key, index) => {
      const hash = hashApiKey(key);
      return { hash, identity: { id: apiKeyId(hash), name: `API_KEYS[${index}]` } };
    });
  }

  get size(): number {
    return this.#keys.length;
  }

  async verify(presentedKey: string): Promise<ApiKeyIdentity | undefined> {
    const presented = hashApiKey(presentedKey);
    let match: ApiKeyIdentity | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(key.hash, presented)) match = key.identity;
    }
    return match;
  }
}
