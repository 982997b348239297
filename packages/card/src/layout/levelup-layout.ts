/**
 * The level-up layout's text block, in 1x pixels, centred in the profile's text column beside the
 * avatar (which, with the panel and border, sits where the profile layout puts it). Sizes follow
 * the type scale for a card shown 400 px wide (0.44 of 1x): secondary text at least 25 px (11 px on
 * screen), the name at least 45 px (20 px on screen).
 */
export const LEVELUP_TEXT = { top: 36, bottom: 266 } as const;

/** Capitals, letter-spaced: `letterSpacing` is a share of the size. */
export const LEVELUP_HEADLINE = { size: 30, minSize: 25, letterSpacing: 0.12, gapBelow: 14 } as const;
/**
 * The old level (dimmed), an arrow, the new level (in `rankData.levelColor`), on one baseline.
 * `gapBelow` keeps the new level's text box (and a legibility pill behind it) off the name's box.
 */
export const LEVELUP_LEVELS = { oldSize: 60, newSize: 92, minNewSize: 52, arrowSize: 48, gap: 18, gapBelow: 30 } as const;
export const LEVELUP_NAME = { size: 48, minSize: 45, gapBelow: 12 } as const;
export const LEVELUP_MESSAGE = { size: 28, minSize: 25 } as const;
