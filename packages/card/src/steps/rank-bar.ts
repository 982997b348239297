import { parseHexColor, type RankData } from '@utility-api/render-jobs';
import { compactNumber } from '@utility-api/compact-number';
import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { LARGE_TEXT_CONTRAST, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import type { Ground } from '../legibility/ground.ts';
import { MIN_TEXT_SIZE, RANK, TEXT_COLUMN } from '../layout/card-layout.ts';
import { layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { inCapitals } from '../text/card-labels.ts';
import { familySpacing } from '../text/family-metrics.ts';
import { drawText, fitText, measureText, type TextStyle } from '../text/rich-text.ts';
import { drawLevelChip, LEVEL_CHIP, levelChipColors, levelChipRect } from './level-chip.ts';
import type { RenderStep } from './render-steps.ts';

/**
 * Podium colors for `autoColorRank`, per ground: the bright metals would need a dark pill of their
 * own on the light theme, so it has deeper ones (each above 4:1 on the light panel).
 */
export const PODIUM_COLORS: Readonly<Record<Ground, Readonly<Record<number, string>>>> = {
  // Silver is a cool blue-grey, not the near-white #b4c0d2 it was: beside white names and ranks it read as white.
  dark: { 1: '#f5c542', 2: '#93a7c4', 3: '#d9894a' },
  light: { 1: '#a66b00', 2: '#5b6678', 3: '#a8541c' },
};

/** 0 to 1; more XP than required shows a full bar rather than overflowing. */
function xpFraction(currentXp: number, requiredXp: number): number {
  return Math.min(1, Math.max(0, currentXp / requiredXp));
}

/** Least space between the LEVEL/RANK group and the XP text on the right. */
const ROW_GAP = 20;
const LABEL_GAP = 8;
const GROUP_GAP = 24;

type RankRow = { levelLabel: string; level: string; rankLabel: string; place: string; valueSize: number };

const valueStyle = (size: number, color: string): TextStyle => ({ size, weight: 800, color });
const labelStyle = (scene: Scene): TextStyle => ({ size: RANK.labelSize, weight: 700, color: scene.textColors.label, letterSpacing: 1.2 });

/** The most of the row the XP text may take, so a long `labels.xp` still leaves room for the level and rank. */
const XP_SHARE = 0.45;

/** The level's colours on a chip, when the ground cannot carry `levelColor` as text (level-chip.ts). */
const levelChipOf = (scene: Scene) => (scene.rank ? levelChipColors(scene.rank.levelColor, scene.ground) : undefined);

/** Between a label and its number, and between the row's groups: the layout's gaps, wider for a family that needs it (family-metrics.ts). */
const labelGap = (scene: Scene) => LABEL_GAP + familySpacing(scene.fontFamily).gapExtra;
const rowGap = (scene: Scene) => ROW_GAP + familySpacing(scene.fontFamily).gapExtra;

/** Room the chip takes beside the number, each side: its padding (the gaps to the label and the rank group stay). */
const chipSide = (scene: Scene) => (levelChipOf(scene) ? LEVEL_CHIP.padX : 0);

function rowWidth(context: CanvasRenderingContext2D, scene: Scene, row: RankRow): number {
  const style = valueStyle(row.valueSize, '#ffffff');
  const label = labelStyle(scene);
  const level = chipSide(scene) + measureText(context, row.level, style) + chipSide(scene);
  return measureText(context, row.levelLabel, label) + labelGap(scene) + level + GROUP_GAP + measureText(context, row.rankLabel, label) + labelGap(scene) + measureText(context, row.place, style);
}

/**
 * Every number on the card is truncated, never rounded up: progress must not claim what has not
 * been reached (999 950 / 1 000 000 XP reads "999.9K / 1M XP", not a finished-looking "1M / 1M"),
 * and a level or rank must not read higher than it is.
 */
const cardNumber = (value: number) => compactNumber(value, { round: 'down' });

/**
 * Level and rank in full while they fit beside the XP text; then abbreviated like the XP ("1B",
 * "#1T"); then smaller, so the two sides of the row never run into each other; then, for long
 * `labels`, with the labels cut (with "…") to an equal share of what the numbers leave.
 */
function fitRankRow(context: CanvasRenderingContext2D, scene: Scene, rank: RankData, room: number): RankRow {
  const labels = { levelLabel: inCapitals(scene.words.level), rankLabel: inCapitals(scene.words.rank) };
  const full: RankRow = { ...labels, level: String(rank.level), place: `#${rank.rank}`, valueSize: RANK.valueSize };
  if (rowWidth(context, scene, full) <= room) return full;
  const compact: RankRow = { ...labels, level: cardNumber(rank.level), place: `#${cardNumber(rank.rank)}`, valueSize: RANK.valueSize };
  while (compact.valueSize > RANK.valueMinSize && rowWidth(context, scene, compact) > room) compact.valueSize -= 1;
  if (rowWidth(context, scene, compact) <= room) return compact;
  const values = rowWidth(context, scene, { ...compact, levelLabel: '', rankLabel: '' });
  const share = Math.max(0, (room - values) / 2);
  const cut = (label: string) => fitText(context, label, labelStyle(scene), share, RANK.labelSize).text;
  return { ...compact, levelLabel: cut(compact.levelLabel), rankLabel: cut(compact.rankLabel) };
}

/** The rank row's texts, left to right, then the XP text on the right (computed once per card). */
export const rankRowLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
  const rank = scene.rank;
  if (!rank) return [];
  const baseline = RANK.rowBaseline;
  const columnWidth = TEXT_COLUMN.right - TEXT_COLUMN.left;
  const xp = fitText(context, `${cardNumber(rank.currentXp)} / ${cardNumber(rank.requiredXp)} ${scene.words.xp}`, { size: RANK.xpSize, weight: 600, color: scene.textColors.xp }, columnWidth * XP_SHARE, MIN_TEXT_SIZE);
  const row = fitRankRow(context, scene, rank, columnWidth - xp.width - rowGap(scene));
  const label = labelStyle(scene);
  const rankColor = rank.autoColorRank ? (PODIUM_COLORS[scene.ground][rank.rank] ?? scene.textColors.value) : scene.textColors.value;
  const chip = levelChipOf(scene);
  const runs: { role: string; text: string; style: TextStyle; gapAfter: number; minContrast: number }[] = [
    { role: 'level label', text: row.levelLabel, style: label, gapAfter: labelGap(scene) + chipSide(scene), minContrast: SMALL_TEXT_CONTRAST },
    // On a chip the number takes the ground's value colour; the caller's colour is the chip's.
    { role: 'level', text: row.level, style: valueStyle(row.valueSize, chip?.text ?? rank.levelColor), gapAfter: chipSide(scene) + GROUP_GAP, minContrast: LARGE_TEXT_CONTRAST },
    { role: 'rank label', text: row.rankLabel, style: label, gapAfter: labelGap(scene), minContrast: SMALL_TEXT_CONTRAST },
    { role: 'rank', text: row.place, style: valueStyle(row.valueSize, rankColor), gapAfter: 0, minContrast: LARGE_TEXT_CONTRAST },
  ];
  const placed: PlacedText[] = [];
  let cursor = TEXT_COLUMN.left;
  for (const run of runs) {
    const width = measureText(context, run.text, run.style);
    placed.push({ role: run.role, text: run.text, x: cursor, baseline, width, style: run.style, minContrast: run.minContrast });
    cursor += width + run.gapAfter;
  }
  placed.push({ role: 'xp', text: xp.text, x: TEXT_COLUMN.right - xp.width, baseline, width: xp.width, style: xp.style, minContrast: SMALL_TEXT_CONTRAST });
  return placed;
});

export const rankBarStep: RenderStep = {
  name: 'rank bar',
  draw(context, scene) {
    const rank = scene.rank;
    if (!rank) return;
    const runs = rankRowLayout(context, scene);
    // The level's chip first, under its number; drawn after the legibility step, whose panel it must not tint.
    const chip = levelChipOf(scene);
    const level = runs.find((run) => run.role === 'level');
    if (chip && level) drawLevelChip(context, levelChipRect(level), chip);
    for (const run of runs) drawText(context, run.text, run.x, run.baseline, run.style);

    const left = TEXT_COLUMN.left;
    const width = TEXT_COLUMN.right - left;
    const radius = RANK.barHeight / 2;
    roundedRectPath(context, left, RANK.barTop, width, RANK.barHeight, radius);
    context.fillStyle = scene.ground === 'dark' ? 'rgba(255, 255, 255, 0.18)' : 'rgba(20, 22, 28, 0.14)';
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
