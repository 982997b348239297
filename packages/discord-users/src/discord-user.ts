import { ASSET_PATH_PATTERN, DISCORD_OBJECT_LIMITS, type DiscordMemberObject, type DiscordRoleColorsObject, PALETTE_PATTERN } from '@utility-api/render-jobs';
import { z } from 'zod';

/** Discord ids are snowflakes: unsigned 64-bit integers written in decimal. */
const SNOWFLAKE = /^\d{1,20}$/;

export function isDiscordUserId(id: string): boolean {
  return SNOWFLAKE.test(id) && BigInt(id) < 2n ** 64n;
}

/** CDN asset hashes are hex, with an `a_` prefix when animated; anything else must not reach a URL. */
const imageHash = z.string().regex(/^(a_)?[0-9a-f]{1,64}$/i);

const color = z.number().int().min(0).max(0xffffff);
const decoration = z.object({ asset: imageHash }).nullish().catch(undefined);
/** The nameplate collectible: its CDN asset path and palette name (other fields are not read). */
const collectibles = z
  .object({
    nameplate: z
      .object({
        asset: z.string().max(DISCORD_OBJECT_LIMITS.maxAssetPathLength).regex(ASSET_PATH_PATTERN).optional().catch(undefined),
        palette: z.string().max(DISCORD_OBJECT_LIMITS.maxPaletteLength).regex(PALETTE_PATTERN).optional().catch(undefined),
      })
      .nullish()
      .catch(undefined),
  })
  .nullish()
  .catch(undefined);

/**
 * The part of Discord's user object a card uses. Unknown fields are dropped (zod's default), so a
 * field Discord adds tomorrow neither breaks parsing nor bloats the profile cache. Identity (id,
 * username) must be right or the answer is unusable; a malformed decorative field is dropped
 * instead, because a card without a banner beats no card.
 */
export const discordUserSchema = z.object({
  id: z.string().regex(SNOWFLAKE),
  username: z.string().min(1).max(100),
  global_name: z.string().min(1).max(100).nullish().catch(undefined),
  bot: z.boolean().optional().catch(undefined),
  avatar: imageHash.nullish().catch(undefined),
  banner: imageHash.nullish().catch(undefined),
  accent_color: z.number().int().min(0).max(0xffffff).nullish().catch(undefined),
  public_flags: z.number().int().min(0).optional().catch(undefined),
  avatar_decoration_data: decoration,
  collectibles,
  primary_guild: z
    .object({
      identity_guild_id: z.string().regex(SNOWFLAKE).nullish().catch(undefined),
      identity_enabled: z.boolean().nullish().catch(undefined),
      tag: z.string().max(DISCORD_OBJECT_LIMITS.maxServerTagLength).nullish().catch(undefined),
      badge: imageHash.nullish().catch(undefined),
    })
    .nullish()
    .catch(undefined),
  display_name_styles: z
    .object({
      font_id: z.number().int().min(0).max(DISCORD_OBJECT_LIMITS.maxStyleId),
      effect_id: z.number().int().min(0).max(DISCORD_OBJECT_LIMITS.maxStyleId),
      colors: z.array(color).max(DISCORD_OBJECT_LIMITS.maxStyleColors),
    })
    .nullish()
    .catch(undefined),
});

/** A user object as Discord sent it, after validation: what the profile cache stores. */
export type DiscordUser = z.infer<typeof discordUserSchema>;

/** Discord allows 250 roles in a server; a member cannot hold more. */
const MAX_MEMBER_ROLES = 250;

/**
 * The part of Discord's guild member object a card uses: the server nickname, avatar, banner,
 * decoration and nameplate, and the member's role ids (for its role colours); a malformed one is
 * dropped (the card then shows the user's own), as a malformed decorative user field is.
 */
export const discordMemberSchema = z.object({
  nick: z.string().min(1).max(100).nullish().catch(undefined),
  avatar: imageHash.nullish().catch(undefined),
  banner: imageHash.nullish().catch(undefined),
  avatar_decoration_data: decoration,
  collectibles,
  roles: z.array(z.string().regex(SNOWFLAKE)).max(MAX_MEMBER_ROLES).optional().catch(undefined),
});

/** A role of `GET /guilds/{id}/roles`: what picks the member's top coloured role and its colours. */
export const discordRoleSchema = z.object({
  id: z.string().regex(SNOWFLAKE),
  position: z.number().int(),
  color: color.optional().catch(undefined),
  colors: z.object({ primary_color: color, secondary_color: color.nullish().catch(undefined), tertiary_color: color.nullish().catch(undefined) }).nullish().catch(undefined),
});

/**
 * What the card takes from a server, as cached: the member's own fields (`null` for none) and the
 * colours of its top coloured role. A user who is not a member, or a server the bot cannot see, is
 * cached as none of them: the card falls back to the user's own name and avatar, and the next
 * card does not ask Discord again.
 */
export type DiscordMember = Omit<DiscordMemberObject, 'nick' | 'avatar' | 'user' | 'user_id' | 'guild_id'> & {
  nick: string | null;
  avatar: string | null;
  role_colors?: DiscordRoleColorsObject | undefined;
};

/**
 * The Discord user does not exist (Discord answered 404 / Unknown User, code 10013). The gateway
 * answers 404. The message names only the id the caller sent, so it is safe to show.
 */
export class UnknownUserError extends Error {
  override readonly name = 'UnknownUserError';
  readonly userId: string;

  constructor(userId: string) {
    // Only a well-formed id is echoed: anything else is arbitrary caller text.
    super(/^\d{1,20}$/.test(userId) ? `no Discord user with id ${userId}` : 'not a Discord user id');
    this.userId = userId;
  }
}

/**
 * Discord could not give us the user right now. `status` is what the gateway should answer:
 * - 502: Discord answered, but not usefully (5xx, unreadable JSON, or it refused our bot token);
 * - 503: Discord did not answer in time, could not be reached, or rate limits us for longer than
 *   we are willing to wait; `retryAfterSeconds` is then set when Discord told us how long.
 * Messages are public-safe: never the token, a URL or a library's error text.
 */
export class DiscordUnavailableError extends Error {
  override readonly name = 'DiscordUnavailableError';
  readonly status: 502 | 503;
  /** Whole seconds until a retry can succeed, rounded up; only for rate limits and Discord 503s. */
  readonly retryAfterSeconds?: number;

  constructor(status: 502 | 503, message: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
