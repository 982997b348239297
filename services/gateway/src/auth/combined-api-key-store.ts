import type { ApiKeyIdentity, ApiKeyStore } from './api-key-store.ts';

/** Asks each store in turn: the bootstrap keys from `API_KEYS`, then the managed ones. */
export class CombinedApiKeyStore implements ApiKeyStore {
  readonly #stores: readonly ApiKeyStore[];

  constructor(stores: readonly ApiKeyStore[]) {
    this.#stores = stores;
  }

  async verify(presentedKey: string): Promise<ApiKeyIdentity | undefined> {
    for (const store of this.#stores) {
      const identity = await store.verify(presentedKey);
      if (identity) return identity;
    }
    return undefined;
  }
}
