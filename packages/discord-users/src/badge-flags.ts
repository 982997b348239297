import type { BadgeKind } from '@utility-api/card';

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
export function badgesFromFlags(publicFlags: number): BadgeKind[] {
  // `&` works on the low 32 bits, where every badge bit lives; higher private flags drop out.
  return BADGE_BITS.filter(([, bit]) => (publicFlags & bit) !== 0).map(([kind]) => kind);
}
