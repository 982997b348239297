import type { CardProfile } from '@utility-api/card';
import { badgesFromFlags } from './badge-flags.ts';
import { type DiscordUser } from './discord-user.ts';

export interface ProfileImages {
  avatar?: Buffer | undefined;
  banner?: Buffer | undefined;
  avatarDecoration?: Buffer | undefined;
}

/** Discord sends colors as 24-bit integers; the card wants `#rrggbb`. */
export function colorFromInteger(value: number): string {
  return `#${value.toString(16).padStart(6, '0')}`;
}

/** The card's view of a validated Discord user plus whichever image bytes could be fetched. */
export function toCardProfile(user: DiscordUser, images: ProfileImages): CardProfile {
  const profile: CardProfile = { userId: user.id, username: user.username };
  if (user.global_name) profile.displayName = user.global_name;
  if (user.bot) profile.bot = true;
  if (user.accent_color != null) profile.accentColor = colorFromInteger(user.accent_color);
  const badges = badgesFromFlags(user.public_flags ?? 0);
  if (badges.length > 0) profile.badges = badges;
  if (images.avatar) profile.avatar = images.avatar;
  if (images.banner) profile.banner = images.banner;
  if (images.avatarDecoration) profile.avatarDecoration = images.avatarDecoration;
  return profile;
}
