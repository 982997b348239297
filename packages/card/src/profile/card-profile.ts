import type { CardOptions } from '@utility-api/render-jobs';

/** Profile badges the card can draw, with our own icons. Names follow Discord's public user flags. */
export const BADGE_KINDS = [
  'staff', 'partner', 'hypesquad_events', 'bug_hunter_level_1', 'bug_hunter_level_2', 'hypesquad_bravery', 'hypesquad_brilliance',
  'hypesquad_balance', 'early_supporter', 'verified_developer', 'certified_moderator', 'active_developer', 'verified_bot',
] as const;

export type BadgeKind = (typeof BADGE_KINDS)[number];

/**
 * Who the card is about, already resolved: text, colors and raw image bytes. The card package
 * never fetches; whoever builds this profile fetched the bytes (or left them out).
 */
export interface CardProfile {
  /** The Discord user id; the creation date and generated art derive from it. */
  userId: string;
  /** Absent when unknown (the profile made without a Discord token): the card then shows no tag line. */
  username?: string | undefined;
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
  /**
   * Discord's nameplate (a collectible drawn behind the name): its palette's two `#rrggbb` colours
   * when the palette is one we know, and its still image when it could be fetched.
   */
  nameplate?: { colors?: readonly [string, string] | undefined; image?: Buffer | undefined } | undefined;
  /** The server tag the user wears (`primary_guild`, at most 4 characters), with its badge when fetched. */
  serverTag?: { tag: string; badge?: Buffer | undefined } | undefined;
  /**
   * The member's top role colours as `#rrggbb`: one is a plain name colour, two a gradient, three
   * Discord's holographic style (`holographic` then true).
   */
  roleColors?: { colors: readonly string[]; holographic: boolean } | undefined;
  /** Discord's undocumented display-name style ids and `#rrggbb` colours, drawn with `experimentalDisplayNameStyles`. */
  displayNameStyle?: { fontId: number; effectId: number; colors: readonly string[] } | undefined;
}

/** Everything a card is drawn from. Images arrive as bytes, already fetched by the caller. */
export interface CardInput {
  profile: CardProfile;
  options: CardOptions;
  /** Bytes for `options.customBackground`, `options.customAvatar` and each of `options.customBadges`, in order. */
  images?: { background?: Buffer | undefined; avatar?: Buffer | undefined; customBadges?: readonly Buffer[] | undefined };
  /** 1 for the design size (900x300; 960x540 for welcome-tall), 2 for twice as wide and tall (HiDPI). Default 1. */
  scale?: 1 | 2;
}

/** A stable 32-bit number from an id, for where the glows of generated art go (never its colours: paint/palette.ts). */
export function idHash(id: string): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}
