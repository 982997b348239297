import { envInteger, envUrl } from '@utility-api/infra';
import { z } from 'zod';

/**
 * The Discord profile source's environment variables: their defaults and limits, and the
 * settings they make. A service spreads the shape into its one schema. Free of node-canvas and
 * ioredis (`@utility-api/discord-users/config`), like the package itself.
 */

/** Discord's own endpoints, for these variables and for createDiscordProfiles used without them. */
export const DISCORD_DEFAULTS = { apiBaseUrl: 'https://discord.com/api/v10', cdnBaseUrl: 'https://cdn.discordapp.com' } as const;

export const discordEnvironmentShape = {
  /** Unset: cards are drawn from the user id alone (default avatar, no banner or badges). */
  DISCORD_BOT_TOKEN: z.string().min(1).optional(),
  /** Tests point these at a fake Discord. The CDN is used without a token too, for `discordUser` and `discordMember`. */
  DISCORD_API_BASE_URL: envUrl(['http', 'https']).default(DISCORD_DEFAULTS.apiBaseUrl),
  DISCORD_CDN_BASE_URL: envUrl(['http', 'https']).default(DISCORD_DEFAULTS.cdnBaseUrl),
  /** How long a Discord user object is reused before Discord is asked again; at least 1: createDiscordProfiles refuses no reuse at all. */
  PROFILE_CACHE_TTL_SECONDS: envInteger({ min: 1, max: 86_400, default: 300 }),
};

type DiscordEnvironment = z.output<z.ZodObject<typeof discordEnvironmentShape>>;

/** Where and as whom to ask Discord (undefined without a token), and how long its answers are reused. */
export function toDiscordSettings(env: DiscordEnvironment) {
  return {
    discord:
      env.DISCORD_BOT_TOKEN === undefined
        ? undefined
        : { token: env.DISCORD_BOT_TOKEN, apiBaseUrl: env.DISCORD_API_BASE_URL.replace(/\/+$/, ''), cdnBaseUrl: env.DISCORD_CDN_BASE_URL.replace(/\/+$/, '') },
    profileCacheTtlMs: env.PROFILE_CACHE_TTL_SECONDS * 1000,
    /** The CDN a request's own Discord objects (`discordUser`, ...) take their images from, with or without a token. */
    cdnBaseUrl: env.DISCORD_CDN_BASE_URL.replace(/\/+$/, ''),
  };
}

export type DiscordSettings = ReturnType<typeof toDiscordSettings>;
