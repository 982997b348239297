import type { Cluster, Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { discordMemberSchema, discordUserSchema, type DiscordMember, type DiscordUser } from './discord-user.ts';

/**
 * Where validated user objects are kept between requests, with a time to live. Embedded mode uses
 * the in-memory LRU, distributed mode Redis so every gateway replica shares one Discord budget.
 * Implementations may throw; the caller treats a failing cache as a miss.
 */
export interface ProfileCache {
  get(userId: string): Promise<DiscordUser | undefined>;
  set(userId: string, user: DiscordUser, ttlMs: number): Promise<void>;
  /** A member's server data (`guildId` chosen), kept as long as users are. */
  getMember(guildId: string, userId: string): Promise<DiscordMember | undefined>;
  setMember(guildId: string, userId: string, member: DiscordMember, ttlMs: number): Promise<void>;
}

/** What a cached member entry must look like to be used (one written by hand or an older version is a miss). */
const integerColor = z.number().int().min(0).max(0xffffff);
const cachedMemberSchema = discordMemberSchema.omit({ roles: true }).extend({
  nick: z.string().min(1).max(100).nullable(),
  avatar: z.string().regex(/^(a_)?[0-9a-f]{1,64}$/i).nullable(),
  role_colors: z.object({ primary_color: integerColor, secondary_color: integerColor.nullish(), tertiary_color: integerColor.nullish() }).optional().catch(undefined),
});

const memberKey = (guildId: string, userId: string) => `${guildId}:${userId}`;

/** A per-process cache bounded by entry count: the least recently used user goes first. */
export function createMemoryProfileCache(options: { maxEntries: number; now?: () => number }): ProfileCache {
  if (!Number.isSafeInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
  // ttlResolution 0 reads the clock on every check, so an injected clock is followed at once.
  const clock = options.now ? { perf: { now: options.now } } : {};
  const users = new LRUCache<string, DiscordUser>({ max: options.maxEntries, ttlResolution: 0, ...clock });
  // Members apart from users, with a bound of their own: a burst of server cards cannot evict every user.
  const members = new LRUCache<string, DiscordMember>({ max: options.maxEntries, ttlResolution: 0, ...clock });
  return {
    get: async (userId) => users.get(userId),
    async set(userId, user, ttlMs) {
      if (ttlMs > 0) users.set(userId, user, { ttl: Math.ceil(ttlMs) });
      else users.delete(userId);
    },
    getMember: async (guildId, userId) => members.get(memberKey(guildId, userId)),
    async setMember(guildId, userId, member, ttlMs) {
      if (ttlMs > 0) members.set(memberKey(guildId, userId), member, { ttl: Math.ceil(ttlMs) });
      else members.delete(memberKey(guildId, userId));
    },
  };
}

const PROFILE_KEY_PREFIX = 'discord-user:';
/** Members under a prefix of their own: a user id can never read as a member entry or the reverse. */
const MEMBER_KEY_PREFIX = 'discord-member:';

/** JSON text as a value of `schema`, or undefined for anything unreadable (counted as a miss). */
function parseCached<T>(text: string | null, schema: z.ZodType<T>): T | undefined {
  if (text === null) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A cache shared by every replica: one JSON string per user, expired by Redis itself (`PX`).
 * What comes back is validated again, so an entry written by an older version or by hand cannot
 * reach the card unchecked; such an entry counts as a miss.
 */
export function createRedisProfileCache(redis: Redis | Cluster, options: { keyPrefix?: string; memberKeyPrefix?: string } = {}): ProfileCache {
  const prefix = options.keyPrefix ?? PROFILE_KEY_PREFIX;
  const memberPrefix = options.memberKeyPrefix ?? MEMBER_KEY_PREFIX;
  const put = async (key: string, value: unknown, ttlMs: number) => {
    const milliseconds = Math.ceil(ttlMs);
    if (milliseconds <= 0) return;
    await redis.set(key, JSON.stringify(value), 'PX', milliseconds);
  };
  return {
    async get(userId) {
      const user = parseCached(await redis.get(`${prefix}${userId}`), discordUserSchema);
      return user?.id === userId ? user : undefined;
    },
    set: (userId, user, ttlMs) => put(`${prefix}${userId}`, user, ttlMs),
    getMember: async (guildId, userId) => parseCached(await redis.get(`${memberPrefix}${memberKey(guildId, userId)}`), cachedMemberSchema),
    setMember: (guildId, userId, member, ttlMs) => put(`${memberPrefix}${memberKey(guildId, userId)}`, member, ttlMs),
  };
}
