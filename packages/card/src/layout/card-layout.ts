/**
 * Where everything sits on the card, in 1x pixels; a `scale` of 2 doubles the canvas and draws
 * the same layout with a transform, so HiDPI output is sharp without a second design.
 */
import { CARD_WIDTH, MIN_NAME_SIZE, MIN_TEXT_SIZE, TYPE_SCALE } from './type-scale.ts';

// Steps and tests that only need the floor read it here, beside the layout's other constants.
export { MIN_TEXT_SIZE } from './type-scale.ts';

export const CARD = { width: CARD_WIDTH, height: 300, radius: 26 } as const;

/** The frosted panel the content sits on, inset from the card edge. */
const PANEL = { x: 16, y: 16, width: 868, height: 268, radius: 20 } as const;

/**
 * A layout's canvas and panel, in 1x pixels: every layout but `welcome-tall` draws on the 3:1
 * CARD with its PANEL; the tall welcome card has its own (welcome-tall-layout.ts).
 */
export interface CardFrame {
  width: number;
  height: number;
  radius: number;
  panel: { x: number; y: number; width: number; height: number; radius: number };
}

export const CARD_FRAME: CardFrame = { ...CARD, panel: PANEL };

/** Where the avatar sits; each layout has its own (the profile card's is AVATAR). */
export interface AvatarBox {
  centerX: number;
  centerY: number;
  radius: number;
  ringWidth: number;
  squareRadius: number;
}

export const AVATAR = { centerX: 136, centerY: 150, radius: 92, ringWidth: 6, squareRadius: 30 } as const satisfies AvatarBox;

/** Avatar decorations are drawn 1.2 times the avatar's size, centred on it, as Discord does. */
export const AVATAR_DECORATION_SCALE = 1.2;

/** Status dot on the avatar's lower right, with a cut-out ring in the panel color around it. */
export const PRESENCE = { radius: 19, cutout: 7, angle: Math.PI / 4 } as const;

export const TEXT_COLUMN = { left: 272, right: 856 } as const;

/**
 * Discord's nameplate behind the name block: reaches from `avatarGap` right of the avatar's
 * decoration to `right`, the block's height plus `padY`; its image is fitted to `imageHeight` (1x pixels).
 */
export const NAMEPLATE = { avatarGap: 8, right: 872, padY: 12, radius: 14, imageHeight: 120, alpha: 0.9 } as const;
/** The server tag pill after the name (and its bot chip), as tall as the bot chip: badge, then the tag (at most 4 characters) in bold at the smallest text size. */
export const SERVER_TAG = { height: 34, padX: 10, gap: 14, badgeSize: 22, badgeGap: 6, radius: 9 } as const;
/**
 * Badge icons and custom badge images, right-aligned at the top of the text column. 36 px is 16 px
 * on a card shown 400 px wide: at 30 px they were 13 px there, too small to tell a custom badge's
 * picture (issue 34). The row's bottom stays near where it was (66 px, was 64).
 */
export const BADGES = { size: 36, gap: 8, top: 30, framePadding: 7 } as const;

/**
 * Text sizes from the type scale (type-scale.ts), sized for the 400 px Discord shows a card at.
 * A name that does not fit on one line at `minSize` takes two lines of `twoLineSize` (down to
 * `twoLineMinSize`) before it ends with an ellipsis; neither goes under the scale's name minimum.
 */
export const NAME = { size: TYPE_SCALE.name, minSize: MIN_NAME_SIZE, twoLineSize: 48, twoLineMinSize: MIN_NAME_SIZE, lineGap: 2 } as const;
export const TAG = { size: TYPE_SCALE.body, minSize: MIN_TEXT_SIZE, gap: 12 } as const;
export const SUBTITLE = { size: TYPE_SCALE.small, minSize: MIN_TEXT_SIZE, gap: 10 } as const;

/** The rank row sits low enough that its big numbers clear the name block (which ends at 172). */
export const RANK = {
  rowBaseline: 212,
  barTop: 224,
  barHeight: 14,
  labelSize: TYPE_SCALE.small,
  valueSize: TYPE_SCALE.value,
  valueMinSize: TYPE_SCALE.body,
  xpSize: TYPE_SCALE.small,
} as const;

export const DATE = { baseline: 268, size: TYPE_SCALE.small } as const;

export const BORDER = { width: 5 } as const;

/** Vertical room for the name block, depending on whether the rank block takes the bottom. */
export const NAME_BLOCK = { top: 40, bottomWithRank: 172, bottomWithoutRank: 238 } as const;
