export { DISCORD_BADGE_FLAGS, badgesFromFlags } from './badge-flags.ts';
export { AVATAR_SIZE, BANNER_SIZE, DISCORD_IMAGE_SIZES, profileImageUrls, type DiscordImageSize, type ProfileImageUrls } from './cdn-urls.ts';
export { DiscordUnavailableError, UnknownUserError } from './discord-errors.ts';
export {
  createDiscordProfiles,
  DEFAULT_DISCORD_API_BASE_URL,
  DEFAULT_DISCORD_CDN_BASE_URL,
  DEFAULT_IMAGE_CACHE_BYTES,
  DEFAULT_USER_AGENT,
  type DiscordProfiles,
  type DiscordProfilesOptions,
  type DiscordProfilesStats,
} from './discord-profiles.ts';
export { discordUserSchema, isDiscordUserId, type DiscordUser } from './discord-user.ts';
export { idOnlyProfile } from './id-only-profile.ts';
export { type ImageFetcher } from './image-fetcher.ts';
export { type Logger } from './logger.ts';
export { createMemoryProfileCache } from './memory-profile-cache.ts';
export { type ProfileCache } from './profile-cache.ts';
export { createRedisProfileCache, DEFAULT_PROFILE_KEY_PREFIX } from './redis-profile-cache.ts';
export { colorFromInteger } from './to-card-profile.ts';
