/** Profile badges the card can draw, with our own icons. Names follow Discord's public user flags. */
export const BADGE_KINDS = [
  'staff',
  'partner',
  'hypesquad_events',
  'bug_hunter_level_1',
  'bug_hunter_level_2',
  'hypesquad_bravery',
  'hypesquad_brilliance',
  'hypesquad_balance',
  'early_supporter',
  'verified_developer',
  'certified_moderator',
  'active_developer',
  'verified_bot',
] as const;

export type BadgeKind = (typeof BADGE_KINDS)[number];

/**
 * Who the card is about, already resolved: text, colors and raw image bytes. The card package
 * never fetches; whoever builds this profile fetched the bytes (or left them out).
 */
export interface CardProfile {
  /** The Discord user id; the creation date and generated art derive from it. */
  userId: string;
  username: string;
  displayName?: string | undefined;
  bot?: boolean | undefined;
  /** `#rrggbb` banner color. */
  accentColor?: string | undefined;
  /** Nitro profile theme: primary and accent `#rrggbb`. */
  themeColors?: readonly [string, string] | undefined;
  badges?: readonly BadgeKind[] | undefined;
  avatar?: Buffer | undefined;
  banner?: Buffer | undefined;
  avatarDecoration?: Buffer | undefined;
}
