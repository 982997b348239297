import type { BadgeKind, CardProfile } from '@utility-api/card';
import { isDiscordUserId, UnknownUserError, type DiscordMember, type DiscordUser } from './discord-user.ts';
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

/**
 * The card's view of a validated Discord user plus whichever image bytes could be fetched (the
 * avatar already the server one when the member has it); a server nickname is the display name,
 * as discord.js's `member.displayName` has it.
 */
export function toCardProfile(user: DiscordUser, images: Partial<Record<ProfileImageField, Buffer>>, member?: DiscordMember): CardProfile {
  const profile: CardProfile = { userId: user.id, username: user.username };
  const displayName = member?.nick ?? user.global_name;
  if (displayName) profile.displayName = displayName;
  if (user.bot) profile.bot = true;
  // Discord sends colors as 24-bit integers; the card wants `#rrggbb`.
  if (user.accent_color != null) profile.accentColor = `#${user.accent_color.toString(16).padStart(6, '0')}`;
  const badges = badgesFromFlags(user.public_flags ?? 0);
  if (badges.length > 0) profile.badges = badges;
  if (images.avatar) profile.avatar = images.avatar;
  if (images.banner) profile.banner = images.banner;
  if (images.avatarDecoration) profile.avatarDecoration = images.avatarDecoration;
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
