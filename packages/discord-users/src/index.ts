export { DISCORD_BADGE_FLAGS, idOnlyProfile } from './card-profile.ts';
export { DISCORD_IMAGE_SIZES, profileImageUrls } from './profile-images.ts';
export { DiscordUnavailableError, UnknownUserError } from './discord-user.ts';
export { createDiscordProfiles, type DiscordProfilesOptions } from './discord-profiles.ts';
export { type DiscordUser } from './discord-user.ts';
export { createMemoryProfileCache, createRedisProfileCache, type ProfileCache } from './profile-cache.ts';
