import type { Lifecycle, Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import { createDiscordProfiles, createMemoryProfileCache, createRedisProfileCache, idOnlyProfile } from '@utility-api/discord-users';
import { createFetchSession, createImageFetcher } from '@utility-api/safe-fetch';
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { createCardRenderPool, type CardRenderPool } from './card-pool/card-render-pool.ts';
import { createRenderJobProcessor, type ProfileSource, type RenderJobProcessor } from './render-job-processor.ts';
import { createRenderMetrics, type RenderMetrics } from './render-metrics.ts';
import type { RenderingSettings } from './rendering-settings.ts';

export interface RenderingCore {
  processor: RenderJobProcessor;
  pool: CardRenderPool;
  metrics: RenderMetrics;
}

const USER_AGENT = 'UtilityApiCardRenderer/1.0 (+https://github.com/utility-api)';

/**
 * Everything a render needs, built once per process: the worker process pool, the safe fetcher and the
 * profile source. Embedded mode passes no Redis (profiles cached in memory).
 */
export function createRenderingCore(
  settings: RenderingSettings,
  parts: { store: MediaStore; redis?: Redis; logger: Logger; lifecycle: Lifecycle; registry: Registry },
): RenderingCore {
  const { logger, lifecycle } = parts;
  const pool = lifecycle.add(
    'card render pool',
    createCardRenderPool({ size: settings.renderPool.workers, memoryLimitBytes: settings.renderPool.memoryLimitBytes, timeBudgetMs: settings.renderPool.timeBudgetMs, logger }),
    (pool) => pool.close(),
  );
  const metrics = createRenderMetrics(parts.registry, pool);
  const fetcher = createImageFetcher({
    allowPrivateHosts: settings.fetch.allowPrivateHosts,
    maxBytes: settings.fetch.maxBytes,
    deadlineMs: settings.fetch.deadlineMs,
    userAgent: USER_AGENT,
  });
  let profiles: ProfileSource;
  if (settings.discord) {
    const discord = createDiscordProfiles({
      token: settings.discord.token,
      apiBaseUrl: settings.discord.apiBaseUrl,
      cdnBaseUrl: settings.discord.cdnBaseUrl,
      fetcher,
      cache: parts.redis ? createRedisProfileCache(parts.redis) : createMemoryProfileCache({ maxEntries: 10_000 }),
      profileTtlMs: settings.profileCacheTtlMs,
      requestTimeoutMs: 4000,
      maxRetryWaitMs: 2000,
      imageCache: { maxBytes: 64 * 1024 * 1024 },
      logger,
    });
    registerProfileCacheMetrics(parts.registry, () => discord.stats());
    profiles = discord;
  } else {
    logger.info('DISCORD_BOT_TOKEN is not set: cards are drawn from the user id alone (default avatar, no banner or badges)');
    profiles = { resolveProfile: async (userId) => idOnlyProfile(userId) };
  }
  const processor = createRenderJobProcessor({
    profiles,
    // A session per card: each distinct URL fetched once, all of them within one byte budget.
    // Profile images above go through the fetcher directly: their sizes are Discord's, not the caller's.
    requestImages: () => {
      const session = createFetchSession(fetcher, settings.fetch.cardBudgetBytes);
      return {
        fetchImage: async (url, field) => (await session.fetchImage(url, field)).bytes,
        get bytesRead() {
          return session.budget.usedBytes;
        },
        cancel: () => session.cancel(),
      };
    },
    pool,
    store: parts.store,
    logger,
    metrics,
  });
  return { processor, pool, metrics };
}

/** Profile and image cache hits, read from the profile source's own counters at scrape time. */
function registerProfileCacheMetrics(registry: Registry, stats: () => { profileCacheHits: number; profileCacheMisses: number; imageCacheHits: number; imageCacheMisses: number }): void {
  let reported = { profileCacheHits: 0, profileCacheMisses: 0, imageCacheHits: 0, imageCacheMisses: 0 };
  new Counter({
    name: 'discord_cache_lookups_total',
    help: 'Discord profile and CDN image cache lookups in this process, by cache and result.',
    labelNames: ['cache', 'result'],
    registers: [registry],
    collect() {
      const now = stats();
      this.inc({ cache: 'profile', result: 'hit' }, now.profileCacheHits - reported.profileCacheHits);
      this.inc({ cache: 'profile', result: 'miss' }, now.profileCacheMisses - reported.profileCacheMisses);
      this.inc({ cache: 'image', result: 'hit' }, now.imageCacheHits - reported.imageCacheHits);
      this.inc({ cache: 'image', result: 'miss' }, now.imageCacheMisses - reported.imageCacheMisses);
      reported = { ...now };
    },
  });
}
