/**
 * Where everything sits on the card, in 1x pixels; a `scale` of 2 doubles the canvas and draws
 * the same layout with a transform, so HiDPI output is sharp without a second design.
 */
export const CARD = { width: 900, height: 300, radius: 26 } as const;

/** The frosted panel the content sits on, inset from the card edge. */
export const PANEL = { x: 16, y: 16, width: 868, height: 268, radius: 20 } as const;

export const AVATAR = { centerX: 136, centerY: 150, radius: 92, ringWidth: 6, squareRadius: 30 } as const;

/** Avatar decorations are drawn 1.2 times the avatar's size, centred on it, as Discord does. */
export const AVATAR_DECORATION_SCALE = 1.2;

/** Status dot on the avatar's lower right, with a cut-out ring in the panel color around it. */
export const PRESENCE = { radius: 19, cutout: 7, angle: Math.PI / 4 } as const;

export const TEXT_COLUMN = { left: 272, right: 856 } as const;

export const BADGES = { size: 30, gap: 8, top: 34, framePadding: 7 } as const;

/**
 * The type scale, for the size Discord shows a card (400 to 550 px wide, about half of 1x): no text
 * is smaller than 16 px at 1x (about 8 px on screen), and the name stays at least 1.4 times the
 * tag. A name that does not fit on one line at `minSize` takes two lines of `twoLineSize` (down to
 * `twoLineMinSize`) before it ends with an ellipsis.
 */
export const NAME = { size: 52, minSize: 36, twoLineSize: 38, twoLineMinSize: 32, lineGap: 4 } as const;
export const TAG = { size: 24, minSize: 18, gap: 14 } as const;
export const SUBTITLE = { size: 20, minSize: 16, gap: 12 } as const;

export const RANK = { rowBaseline: 204, barTop: 218, barHeight: 16, labelSize: 16, valueSize: 30, valueMinSize: 18, xpSize: 18 } as const;

export const DATE = { baseline: 266, size: 16 } as const;

/** The smallest size any text on the card is drawn at, in 1x pixels. */
export const MIN_TEXT_SIZE = 16;

export const BORDER = { width: 5 } as const;

/** Vertical room for the name block, depending on whether the rank block takes the bottom. */
export const NAME_BLOCK = { top: 40, bottomWithRank: 172, bottomWithoutRank: 238 } as const;
