import { withDeadline } from '@utility-api/infra';
import { type ImageByteCache } from './image-byte-cache.ts';
import { type ImageFetcher } from './image-fetcher.ts';
import { type Logger } from './logger.ts';
import { createSingleFlight } from './single-flight.ts';

export type ProfileImageField = 'avatar' | 'banner' | 'avatarDecoration';

export interface ProfileImageLoaderOptions {
  fetchImage: ImageFetcher;
  cache: ImageByteCache | undefined;
  timeoutMs: number;
  logger: Logger;
}

export interface ProfileImageLoader {
  /** The image's bytes, or `undefined` when it could not be fetched or is not a usable image. */
  load(url: string, field: ProfileImageField, userId: string): Promise<Buffer | undefined>;
  stats(): { hits: number; misses: number; failures: number };
}

/**
 * Profile images through the byte cache. A failure is never the card's failure: Discord's CDN
 * drops old hashes, and a card without a banner beats no card, so it is logged and left out.
 * Concurrent loads of one URL (the same decoration preset on many users) share one fetch.
 */
export function createProfileImageLoader(options: ProfileImageLoaderOptions): ProfileImageLoader {
  const { cache, logger } = options;
  const shared = createSingleFlight<Buffer | undefined>();
  const counts = { hits: 0, misses: 0, failures: 0 };

  async function fetchChecked(url: string, field: ProfileImageField, userId: string): Promise<Buffer | undefined> {
    try {
      const bytes = await withDeadline(options.fetchImage(url, field), options.timeoutMs, 'image fetch');
      cache?.set(url, bytes);
      return bytes;
    } catch (error) {
      counts.failures += 1;
      const reason = error instanceof Error ? error.message : 'unknown error';
      logger.warn({ userId, field, url, reason }, 'Discord profile image left out of the card');
      return undefined;
    }
  }

  return {
    async load(url, field, userId) {
      const cached = cache?.get(url);
      if (cached) {
        counts.hits += 1;
        return cached;
      }
      counts.misses += 1;
      return shared.run(url, () => fetchChecked(url, field, userId));
    },
    stats: () => ({ ...counts }),
  };
}
