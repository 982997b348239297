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

export const NAME = { size: 44, minSize: 26 } as const;
export const TAG = { size: 22, minSize: 16 } as const;
export const SUBTITLE = { size: 18, minSize: 14 } as const;

export const RANK = { rowBaseline: 206, barTop: 220, barHeight: 18, labelSize: 13, valueSize: 28, xpSize: 16 } as const;

export const DATE = { baseline: 266, size: 14 } as const;

export const BORDER = { width: 5 } as const;

/** Vertical room for the name block, depending on whether the rank block takes the bottom. */
export const NAME_BLOCK = { top: 44, bottomWithRank: 176, bottomWithoutRank: 236 } as const;
