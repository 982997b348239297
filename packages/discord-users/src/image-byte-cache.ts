/**
 * Image bytes by URL, bounded by their total size; the least recently used image is evicted
 * first. Keying by URL is safe because Discord CDN paths carry the content hash: a new avatar
 * gets a new URL, so an entry never goes stale.
 */
export interface ImageByteCache {
  get(url: string): Buffer | undefined;
  set(url: string, bytes: Buffer): void;
  readonly totalBytes: number;
  readonly size: number;
}

export function createImageByteCache(maxBytes: number): ImageByteCache {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`imageCache.maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
  const entries = new Map<string, Buffer>();
  let totalBytes = 0;
  const remove = (url: string) => {
    const bytes = entries.get(url);
    if (!bytes) return;
    entries.delete(url);
    totalBytes -= bytes.length;
  };
  return {
    get(url) {
      const bytes = entries.get(url);
      if (!bytes) return undefined;
      entries.delete(url);
      entries.set(url, bytes);
      return bytes;
    },
    set(url, bytes) {
      remove(url);
      // One image larger than the whole budget would only flush everything else out.
      if (bytes.length > maxBytes) return;
      entries.set(url, bytes);
      totalBytes += bytes.length;
      for (const oldest of entries.keys()) {
        if (totalBytes <= maxBytes) break;
        remove(oldest);
      }
    },
    get totalBytes() {
      return totalBytes;
    },
    get size() {
      return entries.size;
    },
  };
}
