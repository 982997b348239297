import type { Cluster, Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { discordUserSchema, type DiscordUser } from './discord-user.ts';

/**
 * Where validated user objects are kept between requests, with a time to live. Embedded mode uses
 * the in-memory LRU, distributed mode Redis so every gateway replica shares one Discord budget.
 * Implementations may throw; the caller treats a failing cache as a miss.
 */
export interface ProfileCache {
  get(userId: string): Promise<DiscordUser | undefined>;
  set(userId: string, user: DiscordUser, ttlMs: number): Promise<void>;
}

/** A per-process cache bounded by entry count: the least recently used user goes first. */
export function createMemoryProfileCache(options: { maxEntries: number; now?: () => number }): ProfileCache {
  if (!Number.isSafeInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
  // ttlResolution 0 reads the clock on every check, so an injected clock is followed at once.
  const users = new LRUCache<string, DiscordUser>({ max: options.maxEntries, ttlResolution: 0, ...(options.now ? { perf: { now: options.now } } : {}) });
  return {
    get: async (userId) => users.get(userId),
    async set(userId, user, ttlMs) {
      if (ttlMs > 0) users.set(userId, user, { ttl: Math.ceil(ttlMs) });
      else users.delete(userId);
    },
  };
}

const PROFILE_KEY_PREFIX = 'discord-user:';

/**
 * A cache shared by every replica: one JSON string per user, expired by Redis itself (`PX`).
 * What comes back is validated again, so an entry written by an older version or by hand cannot
 * reach the card unchecked; such an entry counts as a miss.
 */
export function createRedisProfileCache(redis: Redis | Cluster, options: { keyPrefix?: string } = {}): ProfileCache {
  const prefix = options.keyPrefix ?? PROFILE_KEY_PREFIX;
  return {
    async get(userId) {
      const text = await redis.get(`${prefix}${userId}`);
      if (text === null) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return undefined;
      }
      const parsed = discordUserSchema.safeParse(json);
      return parsed.success && parsed.data.id === userId ? parsed.data : undefined;
    },
    async set(userId, user, ttlMs) {
      const milliseconds = Math.ceil(ttlMs);
      if (milliseconds <= 0) return;
      await redis.set(`${prefix}${userId}`, JSON.stringify(user), 'PX', milliseconds);
    },
  };
}
