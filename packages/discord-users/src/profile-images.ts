import type { Logger } from '@utility-api/infra';
import { withDeadline } from '@utility-api/infra/deadline';
import type { ImageFetcher } from '@utility-api/safe-fetch';
import { LRUCache } from 'lru-cache';

export type ProfileImageField = 'avatar' | 'banner' | 'avatarDecoration';

export interface ProfileImagesOptions {
  fetcher: ImageFetcher;
  /** The CDN's hostname: the only host an image may come from, redirects included. */
  onlyHost: string;
  /** Bytes of images kept; 0 keeps none. */
  maxBytes: number;
  timeoutMs: number;
  logger: Logger;
}

export interface ProfileImages {
  /** The image's bytes, or `undefined` when it could not be fetched or is not a usable image. */
  load(url: string, field: ProfileImageField, userId: string): Promise<Buffer | undefined>;
  stats(): { hits: number; misses: number; failures: number; bytes: number; entries: number };
}

/**
 * Profile images by URL in an lru-cache bounded by bytes, whose `fetch` also lets concurrent loads
 * of one URL (the same decoration preset on many users) share one download. Keying by URL is safe
 * because Discord CDN paths carry the content hash: a new avatar gets a new URL. A failure is
 * never the card's failure: the CDN drops old hashes, and a card without a banner beats no card,
 * so it is logged, left out and not cached.
 */
export function createProfileImages(options: ProfileImagesOptions): ProfileImages {
  const { logger } = options;
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
    throw new RangeError(`imageCache.maxBytes must be a non-negative integer, got ${options.maxBytes}`);
  }
  const counts = { hits: 0, misses: 0, failures: 0 };
  type Context = { field: ProfileImageField; userId: string };
  const cache = new LRUCache<string, Buffer, Context>({
    // lru-cache wants a positive bound: with the cache off it is 1 byte, which no image fits, and
    // a download in flight is still shared.
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
    // An eviction under pressure must not cut a download others are waiting for.
    ignoreFetchAbort: true,
    fetchMethod: async (url, _stale, { context: { field, userId } }) => {
      try {
        const image = await withDeadline(options.fetcher.fetchImage(url, field, { onlyHost: options.onlyHost }), options.timeoutMs, 'image fetch');
        return image.bytes;
      } catch (error) {
        counts.failures += 1;
        const reason = error instanceof Error ? error.message : 'unknown error';
        logger.warn({ userId, field, url, reason }, 'Discord profile image left out of the card');
        return undefined;
      }
    },
  });
  return {
    async load(url, field, userId) {
      const status: LRUCache.Status<string, Buffer, Context> = {};
      const loading = cache.fetch(url, { context: { field, userId }, status });
      counts[status.fetch === 'hit' ? 'hits' : 'misses'] += 1;
      return loading;
    },
    stats: () => ({ ...counts, bytes: cache.calculatedSize, entries: cache.size }),
  };
}
