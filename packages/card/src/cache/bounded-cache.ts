export interface BoundedCacheLimits {
  /** The most entries kept; the least recently used go first. */
  maxEntries: number;
  /** The most bytes kept, as counted by the cache's `sizeOf`. */
  maxBytes: number;
}

export interface BoundedCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

/**
 * A least-recently-used map bounded both by entry count and by bytes, for decoded pixels: one
 * entry can be megabytes, so a count alone would not bound memory. A value larger than the whole
 * byte budget is never stored (it would only evict everything else).
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  readonly #sizeOf: (value: V) => number;
  #limits: BoundedCacheLimits;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  constructor(limits: BoundedCacheLimits, sizeOf: (value: V) => number) {
    this.#limits = checkedLimits(limits);
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    // Map keeps insertion order: moving the entry to the end makes the first one the least recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.#sizeOf(value);
    if (bytes > this.#limits.maxBytes || this.#limits.maxEntries === 0) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    this.#evictOverflow();
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Changes the bounds, evicting at once what no longer fits. */
  resize(limits: BoundedCacheLimits): void {
    this.#limits = checkedLimits(limits);
    this.#evictOverflow();
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
    this.#hits = 0;
    this.#misses = 0;
    this.#evictions = 0;
  }

  stats(): BoundedCacheStats {
    return { entries: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses, evictions: this.#evictions };
  }

  #evictOverflow(): void {
    while (this.#entries.size > this.#limits.maxEntries || this.#bytes > this.#limits.maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) return;
      this.delete(oldest.value);
      this.#evictions += 1;
    }
  }
}

function checkedLimits(limits: BoundedCacheLimits): BoundedCacheLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of 0 or more, got ${String(value)}`);
  }
  return { ...limits };
}
