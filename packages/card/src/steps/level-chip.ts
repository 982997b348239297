import { parseHexColor, type Rgb } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { darken, lighten, rgba } from '../color/color.ts';
import { contrastRatio, LARGE_TEXT_CONTRAST, relativeLuminance, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { GROUND_COLOR, GROUND_TEXT, type Ground } from '../legibility/ground.ts';
import type { PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath, type Rect } from '../paint/shapes.ts';

/**
 * The level number's chip: what a `levelColor` the card's ground cannot carry as text becomes (a
 * white or pale yellow level on the light theme, a navy one on the dark theme). Before, the
 * legibility step put a translucent box of the other ground behind the number: on the light theme a
 * grey box behind a white "23", which read as a rendering bug (issue 34). Now the caller's colour
 * is the chip's fill, so it still shows, and the number is drawn on it in the ground's own value
 * colour (the rank's), reaching 4.5:1 on the fill: the chip reads as a designed badge, like the
 * BOT chip, and the number as the row's other values.
 */
export interface LevelChipColors {
  /** The chip: the level colour, lightened (darkened on the dark theme) only as far as the number needs. */
  fill: string;
  /** A hairline of the fill, deepened: a white chip on the light panel still has an edge. */
  edge: string;
  /** The number's colour on the chip: the ground's value colour. */
  text: string;
}

/** Room around the number inside the chip, in 1x pixels: `padX` each side, `padY` above the capitals and below the baseline. */
export const LEVEL_CHIP = { padX: 12, padY: 7, radius: 12, edgeWidth: 2 } as const;

/** Aim above each target, as the legibility step does: antialiased edges must not land under it. */
const MARGIN = 0.25;
/** Digits' height over the font size (Inter's cap height; digits are as tall as capitals). */
const DIGIT_HEIGHT = 0.73;

/** The level colour, lightened on the light theme (darkened on the dark one) in 5 % steps until `text` reaches `target` on it. */
function fillFor(color: Rgb, text: Rgb, ground: Ground, target: number): Rgb {
  const textLuminance = relativeLuminance(text);
  const away = (amount: number) => (ground === 'light' ? lighten(color, amount) : darken(color, amount));
  let amount = 0;
  while (amount < 1 && contrastRatio(relativeLuminance(away(amount)), textLuminance) < target) amount += 0.05;
  return away(Math.min(1, amount));
}

/**
 * The chip's colours when `levelColor` misses large-text contrast (3:1, with the margin) on the
 * card's ground; undefined when it reads there as text, which most colours do.
 */
export function levelChipColors(levelColor: string, ground: Ground): LevelChipColors | undefined {
  const color = parseHexColor(levelColor);
  const groundLuminance = relativeLuminance(GROUND_COLOR[ground]);
  if (contrastRatio(relativeLuminance(color), groundLuminance) >= LARGE_TEXT_CONTRAST + MARGIN) return undefined;
  const text = GROUND_TEXT[ground].value;
  const fill = fillFor(color, parseHexColor(text), ground, SMALL_TEXT_CONTRAST + MARGIN);
  const edge = ground === 'light' ? darken(fill, 0.16) : lighten(fill, 0.22);
  return { fill: rgba(fill), edge: rgba(edge), text };
}

/** The size LEVEL_CHIP is drawn for (the rank row's values); larger numbers (the level-up card's) get a chip scaled with them. */
const CHIP_DESIGN_SIZE = 40;

/**
 * The chip's padding and radius for a number drawn `size` px: LEVEL_CHIP's, grown with the square
 * root of a larger size, never shrunk. Grown in proportion, the level-up card's 92 px number got a
 * chip that touched the headline above it and the name below.
 */
export function levelChipPadding(size: number): { padX: number; padY: number; radius: number } {
  const scale = Math.sqrt(Math.max(1, size / CHIP_DESIGN_SIZE));
  return { padX: LEVEL_CHIP.padX * scale, padY: LEVEL_CHIP.padY * scale, radius: LEVEL_CHIP.radius * scale };
}

/** The chip around a placed number: the digits' height plus `padY` each way, the run's width plus `padX` each side. */
export function levelChipRect(run: PlacedText): Rect & { radius: number } {
  const { padX, padY, radius } = levelChipPadding(run.style.size);
  const digitTop = run.baseline - run.style.size * DIGIT_HEIGHT;
  return { x: run.x - padX, y: digitTop - padY, width: run.width + padX * 2, height: run.baseline - digitTop + padY * 2, radius };
}

/** Draws the chip: its fill, then its edge inside the same outline. */
export function drawLevelChip(context: CanvasRenderingContext2D, rect: Rect & { radius: number }, colors: LevelChipColors): void {
  const inset = LEVEL_CHIP.edgeWidth / 2;
  roundedRectPath(context, rect.x + inset, rect.y + inset, rect.width - LEVEL_CHIP.edgeWidth, rect.height - LEVEL_CHIP.edgeWidth, rect.radius - inset);
  context.fillStyle = colors.fill;
  context.fill();
  context.lineWidth = LEVEL_CHIP.edgeWidth;
  context.strokeStyle = colors.edge;
  context.stroke();
}
