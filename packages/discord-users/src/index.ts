export { cardRoleColors, DISCORD_BADGE_FLAGS, idOnlyProfile } from './card-profile.ts';
export { createProfileImages, DISCORD_IMAGE_SIZES, profileImageUrls, type ProfileImages } from './profile-images.ts';
export { DiscordUnavailableError, UnknownUserError } from './discord-user.ts';
export { createDiscordProfiles, createObjectProfiles, type DiscordCardObjects, type DiscordProfilesOptions } from './discord-profiles.ts';
export { type DiscordUser } from './discord-user.ts';
export { createMemoryProfileCache, createRedisProfileCache, type ProfileCache } from './profile-cache.ts';
