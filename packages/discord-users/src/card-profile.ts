import type { BadgeKind, CardProfile } from '@utility-api/card';
import { HOLOGRAPHIC_ROLE_COLORS, integerColorToHex, NAMEPLATE_PALETTES, type DiscordMemberObject, type DiscordRoleColorsObject, type DiscordUserObject } from '@utility-api/render-jobs';
import { isDiscordUserId, UnknownUserError } from './discord-user.ts';
import type { ProfileImageField } from './profile-images.ts';

/**
 * The `public_flags` bit of each badge the card can draw (Discord's documented user flags), listed
 * in the card's `BADGE_KINDS` order. Only the type comes from the card package: importing its
 * values would load node-canvas into processes that only resolve profiles.
 */
export const DISCORD_BADGE_FLAGS: Readonly<Record<BadgeKind, number>> = Object.freeze({
  staff: 1 << 0,
  partner: 1 << 1,
  hypesquad_events: 1 << 2,
  bug_hunter_level_1: 1 << 3,
  bug_hunter_level_2: 1 << 14,
  hypesquad_bravery: 1 << 6,
  hypesquad_brilliance: 1 << 7,
  hypesquad_balance: 1 << 8,
  early_supporter: 1 << 9,
  verified_developer: 1 << 17,
  certified_moderator: 1 << 18,
  active_developer: 1 << 22,
  verified_bot: 1 << 16,
});

const BADGE_BITS = Object.entries(DISCORD_BADGE_FLAGS) as [BadgeKind, number][];

/** The badges set in `publicFlags`, in the card's badge order; bits we draw no badge for are ignored. */
function badgesFromFlags(publicFlags: number): BadgeKind[] {
  // `&` works on the low 32 bits, where every badge bit lives; higher private flags drop out.
  return BADGE_BITS.filter(([, bit]) => (publicFlags & bit) !== 0).map(([kind]) => kind);
}

/** The member fields the card reads, from a request's `discordMember` or from Discord (the cached member). */
export type MemberFields = Pick<DiscordMemberObject, 'nick' | 'avatar' | 'banner' | 'avatar_decoration_data' | 'collectibles'>;

/**
 * Role colours as the card draws them: none for a role without colour (primary 0), else the
 * colours given, Discord's holographic triple marked as such.
 */
export function cardRoleColors(colors: DiscordRoleColorsObject | undefined): CardProfile['roleColors'] {
  if (!colors || colors.primary_color === 0) return undefined;
  const list = [colors.primary_color, colors.secondary_color, colors.tertiary_color].filter((color): color is number => color !== null && color !== undefined);
  const holographic =
    colors.primary_color === HOLOGRAPHIC_ROLE_COLORS.primary_color && colors.secondary_color === HOLOGRAPHIC_ROLE_COLORS.secondary_color && colors.tertiary_color === HOLOGRAPHIC_ROLE_COLORS.tertiary_color;
  return { colors: list.map(integerColorToHex), holographic };
}

/**
 * The card's view of a Discord user (validated, from Discord or from the request) plus whichever
 * image bytes could be fetched (the avatar already the server one when the member has it). The
 * display name is the member's nickname, else the user's global name, else the username, as
 * discord.js's `member.displayName` has it. Without a user object (a discord.js member alone) the
 * card knows only the id, as without a bot token, and whatever the member says.
 */
export function toCardProfile(
  user: DiscordUserObject | undefined,
  images: Partial<Record<ProfileImageField, Buffer>>,
  member?: MemberFields,
  roleColors?: DiscordRoleColorsObject,
  userId = user?.id,
): CardProfile {
  if (userId === undefined) throw new RangeError('toCardProfile needs a user or a user id');
  const profile: CardProfile = user?.username ? { userId, username: user.username } : idOnlyProfile(userId);
  const displayName = member?.nick || user?.global_name || (user?.username ? undefined : profile.displayName);
  if (displayName) profile.displayName = displayName;
  else delete profile.displayName;
  if (user?.bot) profile.bot = true;
  // Discord sends colors as 24-bit integers; the card wants `#rrggbb`.
  if (user?.accent_color != null) profile.accentColor = integerColorToHex(user.accent_color);
  const badges = badgesFromFlags(user?.public_flags ?? 0);
  if (badges.length > 0) profile.badges = badges;
  if (images.avatar) profile.avatar = images.avatar;
  if (images.banner) profile.banner = images.banner;
  if (images.avatarDecoration) profile.avatarDecoration = images.avatarDecoration;
  const nameplate = member?.collectibles?.nameplate ?? user?.collectibles?.nameplate;
  const palette = nameplate?.palette === undefined ? undefined : NAMEPLATE_PALETTES[nameplate.palette];
  if (palette || images.nameplate) profile.nameplate = { ...(palette && { colors: palette }), ...(images.nameplate && { image: images.nameplate }) };
  const guild = user?.primary_guild;
  // Discord shows the tag only while the user displays it (`identity_enabled`); a tag with nothing visible is none.
  if (guild?.identity_enabled === true && guild.tag && guild.tag.trim() !== '') profile.serverTag = { tag: guild.tag, ...(images.serverTagBadge && { badge: images.serverTagBadge }) };
  const role = cardRoleColors(roleColors);
  if (role) profile.roleColors = role;
  const styles = user?.display_name_styles;
  if (styles) profile.displayNameStyle = { fontId: styles.font_id, effectId: styles.effect_id, colors: styles.colors.map(integerColorToHex) };
  return profile;
}

/**
 * The profile used when no bot token is configured: nothing is fetched, so the name is a
 * placeholder, `User 1234` after the id's last four digits, and the card paints its default avatar
 * and generated background (both derived from the id). The placeholder is a display name, not a
 * username: there is no real username to show, so the card draws no `@username` tag line rather
 * than repeat the name as "@User 1234".
 */
export function idOnlyProfile(userId: string): CardProfile {
  if (!isDiscordUserId(userId)) throw new UnknownUserError(userId);
  return { userId, displayName: `User ${userId.slice(-4)}` };
}
