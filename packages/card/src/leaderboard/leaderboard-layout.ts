/**
 * Where everything sits on a leaderboard card, in 1x pixels. The card is 900 px wide like the
 * profile card (Discord shows both at the same width, ~400 px) and as tall as its rows:
 * `leaderboardHeight` (228 px for one row, 1020 px for ten, 1144 px with the highlighted member
 * drawn under them). Sizes follow the type scale for a card shown 400 px wide (0.44 of 1x):
 * secondary text at least 25 px (11 px on screen), names at least 45 px (20 px on screen).
 */
export const BOARD = { width: 900, radius: 26, padding: 24, borderWidth: 5 } as const;

export const BOARD_TITLE = { baseline: 78, size: 48, minSize: 36, ruleTop: 96, ruleWidth: 72, ruleHeight: 5 } as const;

/** Rows start under the title; each is `height` tall with `gap` between them. */
export const BOARD_ROWS = { top: 124, height: 80, gap: 8, radius: 18, inset: 20 } as const;

/** Columns of a row, left to right: rank, avatar, name; level and score right-aligned. */
export const BOARD_RANK = { left: 44, width: 92, size: 40, minSize: 28 } as const;
export const BOARD_AVATAR = { centerX: 176, radius: 30 } as const;
export const BOARD_NAME = { left: 222, size: 45, gapToStats: 24 } as const;
export const BOARD_STATS = { right: 852, labelSize: 25, valueSize: 32, labelGap: 8, groupGap: 20 } as const;

/** The gap before the highlighted member's own row when it is not among the rows: an ellipsis in it. */
export const BOARD_SEPARATOR = { height: 44, dotRadius: 4, dotGap: 14 } as const;

const BOARD_BOTTOM_PADDING = 24;

/** The card's height for `rows` rows, plus the highlighted member's row under them when `extraRow`. */
export function leaderboardHeight(rows: number, extraRow: boolean): number {
  const rowsHeight = rows * BOARD_ROWS.height + (rows - 1) * BOARD_ROWS.gap;
  return BOARD_ROWS.top + rowsHeight + (extraRow ? BOARD_SEPARATOR.height + BOARD_ROWS.height : 0) + BOARD_BOTTOM_PADDING;
}
