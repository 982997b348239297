import { parseHexColor, type RankData } from '@utility-api/render-jobs';
import { compactNumber } from '@utility-api/compact-number';
import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { RANK, TEXT_COLUMN } from '../layout/card-layout.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import { drawText, measureText, type TextStyle } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

/** Podium colors for `autoColorRank`. */
const PODIUM_COLORS: Readonly<Record<number, string>> = { 1: '#f5c542', 2: '#b4c0d2', 3: '#d9894a' };

const LABEL = { size: RANK.labelSize, weight: 700, color: 'rgba(255, 255, 255, 0.62)', letterSpacing: 1.4 } as const;

/** 0 to 1; more XP than required shows a full bar rather than overflowing. */
function xpFraction(currentXp: number, requiredXp: number): number {
  return Math.min(1, Math.max(0, currentXp / requiredXp));
}

/** Least space between the LEVEL/RANK group and the XP text on the right. */
const ROW_GAP = 20;
const VALUE_MIN_SIZE = 16;

type RankRow = { level: string; place: string; valueSize: number };

const valueStyle = (size: number, color: string): TextStyle => ({ size, weight: 800, color });

function rowWidth(context: CanvasRenderingContext2D, row: RankRow): number {
  const style = valueStyle(row.valueSize, '#fff');
  return measureText(context, 'LEVEL', LABEL) + 6 + measureText(context, row.level, style) + 22 + measureText(context, 'RANK', LABEL) + 6 + measureText(context, row.place, style);
}

/**
 * Every number on the card is truncated, never rounded up: progress must not claim what has not
 * been reached (999 950 / 1 000 000 XP reads "999.9K / 1M XP", not a finished-looking "1M / 1M"),
 * and a level or rank must not read higher than it is.
 */
const cardNumber = (value: number) => compactNumber(value, { round: 'down' });

/**
 * Level and rank in full while they fit beside the XP text; then abbreviated like the XP ("1B",
 * "#1T"); then smaller, so the two sides of the row never run into each other.
 */
function fitRankRow(context: CanvasRenderingContext2D, rank: RankData, room: number): RankRow {
  const full: RankRow = { level: String(rank.level), place: `#${rank.rank}`, valueSize: RANK.valueSize };
  if (rowWidth(context, full) <= room) return full;
  const compact: RankRow = { level: cardNumber(rank.level), place: `#${cardNumber(rank.rank)}`, valueSize: RANK.valueSize };
  while (compact.valueSize > VALUE_MIN_SIZE && rowWidth(context, compact) > room) compact.valueSize -= 1;
  return compact;
}

export const rankBarStep: RenderStep = {
  name: 'rank bar',
  draw(context, scene) {
    const rank = scene.rank;
    if (!rank) return;
    const left = TEXT_COLUMN.left;
    const width = TEXT_COLUMN.right - left;
    const baseline = RANK.rowBaseline;

    const xp = `${cardNumber(rank.currentXp)} / ${cardNumber(rank.requiredXp)} XP`;
    const xpWidth = drawText(context, xp, TEXT_COLUMN.right, baseline, { size: RANK.xpSize, weight: 600, color: 'rgba(255, 255, 255, 0.86)' }, 'right');

    const row = fitRankRow(context, rank, width - xpWidth - ROW_GAP);
    let cursor = left;
    cursor += drawText(context, 'LEVEL', cursor, baseline, LABEL) + 6;
    cursor += drawText(context, row.level, cursor, baseline, valueStyle(row.valueSize, rank.levelColor)) + 22;
    cursor += drawText(context, 'RANK', cursor, baseline, LABEL) + 6;
    const rankColor = rank.autoColorRank ? (PODIUM_COLORS[rank.rank] ?? '#ffffff') : '#ffffff';
    drawText(context, row.place, cursor, baseline, valueStyle(row.valueSize, rankColor));

    const radius = RANK.barHeight / 2;
    roundedRectPath(context, left, RANK.barTop, width, RANK.barHeight, radius);
    context.fillStyle = 'rgba(255, 255, 255, 0.16)';
    context.fill();
    const fraction = xpFraction(rank.currentXp, rank.requiredXp);
    if (fraction > 0) {
      // Never narrower than the bar is tall, so a sliver of progress still shows as a round pill.
      const filled = Math.max(RANK.barHeight, width * fraction);
      const bar = parseHexColor(rank.barColor);
      roundedRectPath(context, left, RANK.barTop, filled, RANK.barHeight, radius);
      context.fillStyle = withStops(context.createLinearGradient(left, 0, left + filled, 0), [[0, rgba(bar)], [1, rgba(lighten(bar, 0.22))]]);
      context.fill();
    }
  },
};
