import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '@utility-api/infra';
import type { ApiKeyRecord } from './api-key-record.ts';
import type { ApiKeyRecords } from './api-key-records.ts';
import type { ApiKeyIdentity, ApiKeyStore } from './api-key-store.ts';
import { hashApiKey } from './api-key-hash.ts';
import { managedKeyId } from './managed-key-format.ts';

interface KnownKey {
  hash: Buffer;
  revoked: boolean;
  identity: ApiKeyIdentity;
}

/**
 * How often each gateway asks whether any key changed. A revocation is honoured by every gateway
 * within one interval plus one reload (well under a second); the question costs one Redis GET or
 * one file stat.
 */
export const KEY_POLL_INTERVAL_MS = 250;
/** How long an unknown key waits for the store before it is refused: a slow Redis must not hold requests. */
const MISS_WAIT_MS = 300;

function known(record: ApiKeyRecord): KnownKey {
  return {
    hash: Buffer.from(record.hash, 'hex'),
    revoked: record.revokedAt !== null,
    identity: { id: record.prefix, name: record.name, ...(record.limits ? { limits: record.limits } : {}) },
  };
}

/**
 * Managed keys as an in-memory map from id to hash, so checking a key costs one SHA-256 and one
 * map lookup, never a round trip. The map is replaced whenever the store's version changes, which
 * is polled in the background and also checked when a well-formed key is not in the map (so a key
 * created a moment ago works at once). When the store is unreachable the last map stays in use:
 * keys keep working through a Redis outage, and nobody can revoke one meanwhile anyway.
 */
export class ManagedApiKeyStore implements ApiKeyStore {
  readonly #records: ApiKeyRecords;
  readonly #logger: Logger;
  #keys = new Map<string, KnownKey>();
  #version: string | undefined;
  #refreshing: Promise<void> | undefined;
  #nextRefresh: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;

  private constructor(records: ApiKeyRecords, logger: Logger) {
    this.#records = records;
    this.#logger = logger;
  }

  /** Loads every record (a failure here fails the boot: better no gateway than one without its keys). */
  static async open(records: ApiKeyRecords, logger: Logger, pollIntervalMs = KEY_POLL_INTERVAL_MS): Promise<ManagedApiKeyStore> {
    const store = new ManagedApiKeyStore(records, logger);
    store.#apply(await records.snapshot());
    // A poll that finds a reload still running (a slow store) skips its turn instead of queueing.
    store.#timer = setInterval(() => {
      if (!store.#refreshing) void store.refresh();
    }, pollIntervalMs);
    store.#timer.unref();
    return store;
  }

  /** Keys that are not revoked. */
  get activeCount(): number {
    let count = 0;
    for (const key of this.#keys.values()) if (!key.revoked) count += 1;
    return count;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async verify(presentedKey: string): Promise<ApiKeyIdentity | undefined> {
    const id = managedKeyId(presentedKey);
    if (id === undefined) return undefined;
    let key = this.#keys.get(id);
    if (!key) {
      await this.#refreshWithin(MISS_WAIT_MS);
      key = this.#keys.get(id);
      if (!key) return undefined;
    }
    // The id only finds the record; the secret part is what must match, in constant time.
    if (!timingSafeEqual(hashApiKey(presentedKey), key.hash) || key.revoked) return undefined;
    return key.identity;
  }

  /**
   * Reloads when the store's version moved. A reload already running may have read the store
   * before the caller's change, so callers then wait for the next one, which all of them share: at
   * most one reload runs and one waits, however many requests ask while Redis is slow.
   */
  refresh(): Promise<void> {
    if (!this.#refreshing) return this.#startReload();
    this.#nextRefresh ??= this.#refreshing.then(() => {
      this.#nextRefresh = undefined;
      return this.#startReload();
    });
    return this.#nextRefresh;
  }

  #startReload(): Promise<void> {
    const running: Promise<void> = this.#reload().finally(() => {
      if (this.#refreshing === running) this.#refreshing = undefined;
    });
    this.#refreshing = running;
    return running;
  }

  async #refreshWithin(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.refresh(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  async #reload(): Promise<void> {
    try {
      if ((await this.#records.version()) === this.#version) return this.#recovered();
      this.#apply(await this.#records.snapshot());
      this.#recovered();
    } catch (error) {
      // Reported once per outage: the poll runs four times a second.
      if (!this.#failing) this.#logger.warn({ err: error, store: this.#records.location }, 'api keys: store unreachable, keeping the last known keys');
      this.#failing = true;
    }
  }

  #recovered(): void {
    if (this.#failing) this.#logger.info({ store: this.#records.location }, 'api keys: store reachable again');
    this.#failing = false;
  }

  #apply(snapshot: { version: string; records: readonly ApiKeyRecord[] }): void {
    this.#keys = new Map(snapshot.records.map((record) => [record.id, known(record)]));
    this.#version = snapshot.version;
  }
}
