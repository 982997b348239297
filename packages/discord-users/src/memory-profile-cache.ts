import { type DiscordUser } from './discord-user.ts';
import { type ProfileCache } from './profile-cache.ts';

interface Entry {
  user: DiscordUser;
  expiresAt: number;
}

/**
 * A per-process cache bounded by entry count: the least recently used user goes first. A Map keeps
 * insertion order, so re-inserting on every hit makes its first key the least recently used one.
 */
export function createMemoryProfileCache(options: { maxEntries: number; now?: () => number }): ProfileCache {
  if (!Number.isSafeInteger(options.maxEntries) || options.maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
  }
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return {
    async get(userId) {
      const entry = entries.get(userId);
      if (!entry) return undefined;
      entries.delete(userId);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(userId, entry);
      return entry.user;
    },
    async set(userId, user, ttlMs) {
      entries.delete(userId);
      if (ttlMs <= 0) return;
      entries.set(userId, { user, expiresAt: now() + ttlMs });
      while (entries.size > options.maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
  };
}
