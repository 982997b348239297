/**
 * Where everything sits on a leaderboard card, in 1x pixels. The card is 900 px wide like the
 * profile card (Discord shows both at the same width, ~400 px) and as tall as its parts:
 * `leaderboardHeight` (228 px for one row, 1020 px for ten, 1144 px with the highlighted member
 * drawn under them; a server header and a podium add their bands). Sizes follow the type scale for
 * a card shown 400 px wide (0.44 of 1x): secondary text at least 25 px (11 px on screen), names at
 * least 45 px (20 px on screen).
 */
export const BOARD = { width: 900, radius: 26, padding: 24, borderWidth: 5 } as const;

export const BOARD_TITLE = { baseline: 78, size: 48, minSize: 36, ruleTop: 96, ruleWidth: 72, ruleHeight: 5 } as const;

/**
 * The server header (`guild`), replacing the title band: the icon left, the server name as the big
 * line, the title and member count under it. Taller than the title band by `extraHeight`.
 */
export const BOARD_GUILD = {
  extraHeight: 24,
  iconCenterX: 68,
  iconCenterY: 74,
  iconRadius: 42,
  textLeft: 128,
  nameBaseline: 70,
  nameSize: 45,
  sublineBaseline: 112,
  sublineSize: 28,
} as const;

/** Rows start under the title; each is `height` tall with `gap` between them. */
export const BOARD_ROWS = { top: 124, height: 80, gap: 8, radius: 18, inset: 20 } as const;

/** Columns of a row, left to right: rank, avatar, name; then the level and score columns, right-aligned. */
export const BOARD_RANK = { left: 44, width: 92, size: 40, minSize: 28 } as const;
export const BOARD_AVATAR = { centerX: 176, radius: 30 } as const;
export const BOARD_NAME = { left: 222, size: 45, gapToStats: 24 } as const;
/**
 * The level and score columns: each as wide as its widest number (tabular figures, so digits stand
 * under digits) or its heading, the score's right edge at `right`, `columnGap` between them. Their
 * headings (`LVL`, the score label) are drawn once, `headingGap` above the first list row, instead of
 * beside every number: a wide score label then costs the names nothing.
 */
export const BOARD_STATS = { right: 852, labelSize: 25, valueSize: 32, columnGap: 36, headingGap: 14 } as const;

/** The highlighted row: opaque accent fill, a bright outline, a bar on its left edge and a halo (`glow`, a faint stroke that wide). */
export const BOARD_HIGHLIGHT = { outline: 4, barWidth: 8, glow: 16 } as const;

/** The gap before the highlighted member's own row when it is not among the rows: an ellipsis in it. */
export const BOARD_SEPARATOR = { height: 44, dotRadius: 4, dotGap: 14 } as const;

/**
 * The podium (`podium: true`): ranks 2, 1, 3 side by side on boxes of `placeWidth`, first in the
 * middle, raised by `raise` and with a larger avatar. `height` is the band from its top to the
 * bottom of the boxes; `gapAfter` leaves room for the list's column headings under it.
 */
export const BOARD_PODIUM = {
  height: 290,
  gapAfter: 52,
  placeWidth: 262,
  placeGap: 14,
  raise: 44,
  avatarTop: 22,
  avatarRadius: { first: 62, other: 50 },
  ringWidth: 5,
  medalRadius: 21,
  medalSize: 28,
  stripe: 6,
  nameSize: 45,
  nameFromBottom: 64,
  statsFromBottom: 22,
  statsValueSize: 28,
} as const;

const BOARD_BOTTOM_PADDING = 24;

/** What sits above the list: a server header, a podium. */
export type BoardBands = { guild?: boolean; podium?: boolean };

/** Where the podium band starts (under the title or server header). */
export function podiumTop(bands: BoardBands): number {
  return BOARD_ROWS.top + (bands.guild ? BOARD_GUILD.extraHeight : 0);
}

/** Where the first list row starts. */
export function listTop(bands: BoardBands): number {
  return podiumTop(bands) + (bands.podium ? BOARD_PODIUM.height + BOARD_PODIUM.gapAfter : 0);
}

/**
 * The card's height for `rows` list rows (the podium's three not counted), plus the highlighted
 * member's row under them when `extraRow`, under the given bands. A podium with no list under it
 * ends at its boxes.
 */
export function leaderboardHeight(rows: number, extraRow: boolean, bands: BoardBands = {}): number {
  const listRows = rows + (extraRow ? 1 : 0);
  if (listRows === 0) return podiumTop(bands) + BOARD_PODIUM.height + BOARD_BOTTOM_PADDING;
  const rowsHeight = rows * BOARD_ROWS.height + Math.max(0, rows - 1) * BOARD_ROWS.gap;
  return listTop(bands) + rowsHeight + (extraRow ? BOARD_SEPARATOR.height + BOARD_ROWS.height : 0) + BOARD_BOTTOM_PADDING;
}
