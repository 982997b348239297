import { compactNumber } from '@utility-api/compact-number';
import { lighten, parseHex, rgba } from '../color/color.ts';
import { RANK, TEXT_COLUMN } from '../layout/card-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import { drawText } from '../text/rich-text.ts';
import type { RenderStep } from './render-step.ts';

/** Podium colors for `autoColorRank`. */
export const PODIUM_COLORS: Readonly<Record<number, string>> = { 1: '#f5c542', 2: '#b4c0d2', 3: '#d9894a' };

const LABEL = { size: RANK.labelSize, weight: 700, color: 'rgba(255, 255, 255, 0.62)', letterSpacing: 1.4 } as const;

/** 0 to 1; more XP than required shows a full bar rather than overflowing. */
export function xpFraction(currentXp: number, requiredXp: number): number {
  return Math.min(1, Math.max(0, currentXp / requiredXp));
}

export const rankBarStep: RenderStep = {
  name: 'rank bar',
  draw(context, scene) {
    const rank = scene.rank;
    if (!rank) return;
    const left = TEXT_COLUMN.left;
    const width = TEXT_COLUMN.right - left;
    const baseline = RANK.rowBaseline;

    let cursor = left;
    cursor += drawText(context, 'LEVEL', cursor, baseline, LABEL) + 6;
    cursor += drawText(context, String(rank.level), cursor, baseline, { size: RANK.valueSize, weight: 800, color: rank.levelColor }) + 22;
    cursor += drawText(context, 'RANK', cursor, baseline, LABEL) + 6;
    const rankColor = rank.autoColorRank ? (PODIUM_COLORS[rank.rank] ?? '#ffffff') : '#ffffff';
    drawText(context, `#${rank.rank}`, cursor, baseline, { size: RANK.valueSize, weight: 800, color: rankColor });

    const xp = `${compactNumber(rank.currentXp)} / ${compactNumber(rank.requiredXp)} XP`;
    drawText(context, xp, TEXT_COLUMN.right, baseline, { size: RANK.xpSize, weight: 600, color: 'rgba(255, 255, 255, 0.86)' }, 'right');

    const radius = RANK.barHeight / 2;
    roundedRectPath(context, left, RANK.barTop, width, RANK.barHeight, radius);
    context.fillStyle = 'rgba(255, 255, 255, 0.16)';
    context.fill();
    const fraction = xpFraction(rank.currentXp, rank.requiredXp);
    if (fraction > 0) {
      // Never narrower than the bar is tall, so a sliver of progress still shows as a round pill.
      const filled = Math.max(RANK.barHeight, width * fraction);
      const bar = parseHex(rank.barColor);
      const gradient = context.createLinearGradient(left, 0, left + filled, 0);
      gradient.addColorStop(0, rgba(bar));
      gradient.addColorStop(1, rgba(lighten(bar, 0.22)));
      roundedRectPath(context, left, RANK.barTop, filled, RANK.barHeight, radius);
      context.fillStyle = gradient;
      context.fill();
    }
  },
};
