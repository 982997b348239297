import type { Redis } from 'ioredis';
import { discordUserSchema, type DiscordUser } from './discord-user.ts';
import { type ProfileCache } from './profile-cache.ts';

export const DEFAULT_PROFILE_KEY_PREFIX = 'discord-user:';

/**
 * A cache shared by every replica: one JSON string per user, expired by Redis itself (`PX`).
 * What comes back is validated again, so an entry written by an older version or by hand cannot
 * reach the card unchecked; such an entry counts as a miss.
 */
export function createRedisProfileCache(redis: Redis, options: { keyPrefix?: string } = {}): ProfileCache {
  const prefix = options.keyPrefix ?? DEFAULT_PROFILE_KEY_PREFIX;
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
    async set(userId, user: DiscordUser, ttlMs) {
      const milliseconds = Math.ceil(ttlMs);
      if (milliseconds <= 0) return;
      await redis.set(`${prefix}${userId}`, JSON.stringify(user), 'PX', milliseconds);
    },
  };
}
