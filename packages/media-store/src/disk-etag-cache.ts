import type { Stats } from 'node:fs';

interface CachedEtag {
  ino: number;
  size: number;
  mtimeMs: number;
  etag: string;
}

/**
 * Remembers the content ETag of files this process wrote or already hashed, so `stat` and `open`
 * do not read a whole image to answer a conditional request. An entry is trusted only while the
 * file's inode, size and mtime are unchanged (a `put` renames a new inode over the old one).
 */
export class DiskEtagCache {
  readonly #entries = new Map<string, CachedEtag>();
  readonly #capacity: number;

  constructor(capacity = 4096) {
    this.#capacity = capacity;
  }

  get(key: string, stats: Stats): string | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.ino !== stats.ino || entry.size !== stats.size || entry.mtimeMs !== stats.mtimeMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.etag;
  }

  set(key: string, stats: Stats, etag: string): void {
    // Re-inserting moves the key to the end, so the Map's insertion order doubles as recency.
    this.#entries.delete(key);
    this.#entries.set(key, { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, etag });
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}
