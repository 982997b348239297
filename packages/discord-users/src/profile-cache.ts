import { type DiscordUser } from './discord-user.ts';

/**
 * Where validated user objects are kept between requests, with a time to live. Embedded mode uses
 * the in-memory LRU, distributed mode Redis so every gateway replica shares one Discord budget.
 * Implementations may throw; the caller treats a failing cache as a miss.
 */
export interface ProfileCache {
  get(userId: string): Promise<DiscordUser | undefined>;
  set(userId: string, user: DiscordUser, ttlMs: number): Promise<void>;
}
