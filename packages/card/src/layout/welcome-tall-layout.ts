import type { AvatarBox, CardFrame } from './card-layout.ts';

/**
 * The tall welcome layout (`layout: "welcome-tall"`), in 1x pixels: a 16:9 card, 960x540 (1920x1080
 * at `scale: 2`), for a welcome channel where the greeting is the message. Discord shows a 16:9
 * attachment about as wide as the 3:1 cards (400-550 px), so this one stands 225 px tall in the chat
 * where the banner stands 133. The avatar is centred and large, the member's name is the hero under
 * it, the headline above the name names the server ("Welcome to Pixel Garden") and the message under
 * it the member's number ("Member #1,234"): the same options the `welcome` layout draws.
 *
 * Sizes are for the card shown 400 px wide (0.417 of 1x, against 0.444 for a 900 px card), so every
 * size is the 900 px type scale's step times 960/900 or more: secondary text at least 27 px (11.2 px
 * on screen), the name at least 48 px (20 px on screen).
 */

/** 16:9 at a size whose 2x is 1080p; the panel inset 20 px, as the 3:1 card's is 16. */
export const WELCOME_TALL_FRAME: CardFrame = {
  width: 960,
  height: 540,
  radius: 28,
  panel: { x: 20, y: 20, width: 920, height: 500, radius: 24 },
};

/**
 * Centred at the top: its decoration (1.2x, radius 115) stays inside the panel with 15 px to spare,
 * and 204 px across it is 85 px on screen at 400 px, twice the 3:1 welcome card's 96 px of 216 at 900.
 */
export const WELCOME_TALL_AVATAR = { centerX: 480, centerY: 150, radius: 96, ringWidth: 7, squareRadius: 32 } as const satisfies AvatarBox;

/** The text block's room: under the avatar's decoration, above the panel's bottom padding; `width` is the line length, centred on the card. */
export const WELCOME_TALL_TEXT = { top: 278, bottom: 504, width: 840 } as const;

/** The badge row's right edge: the panel's right padding, as on the 3:1 card. */
export const WELCOME_TALL_BADGES_RIGHT = 916;

/** Capitals, letter-spaced (a share of the size), the server's name above the hero. */
export const WELCOME_TALL_HEADLINE = { size: 36, minSize: 28, letterSpacing: 0.08 } as const;
/**
 * The hero: one line from `size` down to `minSize`, then two lines broken between words from
 * `twoLineSize` down to `twoLineMinSize` (48 px is the name's 20 px on screen); `lineGap` between them.
 */
export const WELCOME_TALL_NAME = { size: 76, minSize: 60, twoLineSize: 60, twoLineMinSize: 48, lineGap: 4, gap: 20 } as const;
export const WELCOME_TALL_TAG = { size: 30, minSize: 28, gap: 10 } as const;
/** The member number line ("Member #1,234"), the second most important fact of the card. */
export const WELCOME_TALL_MESSAGE = { size: 32, minSize: 28, gap: 14 } as const;
export const WELCOME_TALL_SUBTITLE = { size: 28, minSize: 28, gap: 10 } as const;
