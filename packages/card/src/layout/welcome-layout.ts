/**
 * The welcome layout's text block, in 1x pixels. The avatar, badges, date, panel and border sit
 * where the profile layout puts them (card-layout.ts); only the text beside the avatar differs:
 * centred lines in the profile's text column, the block centred on the avatar's middle.
 */
export const WELCOME_TEXT = {
  /** Room the block must stay inside: under the panel's top padding, above the date line. */
  top: 40,
  bottom: 244,
  /** Space kept under the badge row when the headline would reach under it. */
  badgeClearance: 12,
} as const;

/** Sizes at 1x; no line is drawn smaller than 16 px (Discord shows the card 400-550 px wide). */
/** `letterSpacing` is a share of the size (4 px at 54 px); only for Latin, Greek, Cyrillic and Armenian headlines. */
export const WELCOME_HEADLINE = { size: 54, minSize: 22, letterSpacing: 0.075 } as const;
export const WELCOME_NAME = { size: 34, minSize: 20 } as const;
export const WELCOME_TAG = { size: 20, minSize: 16, gap: 12 } as const;
export const WELCOME_MESSAGE = { size: 20, minSize: 16 } as const;
export const WELCOME_SUBTITLE = { size: 18, minSize: 16 } as const;

/** The short accent rule between the headline and the name. */
export const WELCOME_RULE = { width: 64, height: 4, gapAbove: 14, gapBelow: 12 } as const;
