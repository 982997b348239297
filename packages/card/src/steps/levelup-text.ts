import { previousLevelOf } from '@utility-api/render-jobs';
import { compactNumber } from '@utility-api/compact-number';
import type { CanvasRenderingContext2D } from 'canvas';
import { LARGE_TEXT_CONTRAST, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { AVATAR, TEXT_COLUMN } from '../layout/card-layout.ts';
import { LEVELUP_HEADLINE, LEVELUP_LEVELS, LEVELUP_MESSAGE, LEVELUP_NAME, LEVELUP_TEXT } from '../layout/levelup-layout.ts';
import { drawPlacedTexts, layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import type { Scene } from '../scene.ts';
import { fitText, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import { drawLevelChip, levelChipColors, levelChipPadding, levelChipRect } from './level-chip.ts';
import type { RenderStep } from './render-steps.ts';

/** Inter's cap height and descender as a share of the font size, to stack lines optically. */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;

/** Levels as the rank block writes them: rounded down, so a level never reads higher than it is. */
const levelText = (level: number) => compactNumber(level, { round: 'down' });

type Line = { height: number; descent: number; gapAbove: number; place: (centerX: number, baseline: number) => PlacedText[] };

const centeredRun = (role: string, fitted: FittedText, centerX: number, baseline: number, minContrast: number): PlacedText => ({
  role,
  text: fitted.text,
  x: centerX + (fitted.style.letterSpacing ?? 0) / 2 - fitted.width / 2,
  baseline,
  width: fitted.width,
  style: fitted.style,
  minContrast,
});

const textLine = (role: string, fitted: FittedText, gapAbove: number, minContrast: number): Line => ({
  height: fitted.style.size * CAP_HEIGHT,
  descent: fitted.style.size * DESCENT,
  gapAbove,
  place: (centerX, baseline) => [centeredRun(role, fitted, centerX, baseline, minContrast)],
});

/** `old → new`, the new level largest; shrunk (old level and arrow with it) until the row fits. */
function levelsLine(context: CanvasRenderingContext2D, scene: Scene, width: number, gapAbove: number): Line | undefined {
  const rank = scene.rank;
  if (!rank) return undefined;
  const texts = { old: levelText(previousLevelOf(rank)), arrow: '→', new: levelText(rank.level) };
  const chip = levelChipColors(rank.levelColor, scene.ground);
  // The chip's padding each side of the new level, inside the row's width.
  const chipSide = (size: number) => (chip ? levelChipPadding(size).padX : 0);
  const stylesAt = (newSize: number) => {
    const ratio = newSize / LEVELUP_LEVELS.newSize;
    return {
      old: { size: Math.round(LEVELUP_LEVELS.oldSize * ratio), weight: 800, color: scene.textColors.xp } satisfies TextStyle,
      arrow: { size: Math.round(LEVELUP_LEVELS.arrowSize * ratio), weight: 700, color: scene.textColors.label } satisfies TextStyle,
      // On a chip (a levelColor the ground cannot carry as text) the number takes the ground's value colour.
      new: { size: newSize, weight: 800, color: chip?.text ?? rank.levelColor } satisfies TextStyle,
    };
  };
  let newSize: number = LEVELUP_LEVELS.newSize;
  const measure = (size: number) => {
    const styles = stylesAt(size);
    const widths = { old: measureText(context, texts.old, styles.old), arrow: measureText(context, texts.arrow, styles.arrow), new: measureText(context, texts.new, styles.new) };
    return { styles, widths, total: widths.old + widths.arrow + widths.new + LEVELUP_LEVELS.gap * 2 + chipSide(size) * 2 };
  };
  let measured = measure(newSize);
  while (measured.total > width && newSize > LEVELUP_LEVELS.minNewSize) measured = measure((newSize -= 2));
  const { styles, widths, total } = measured;
  return {
    height: newSize * CAP_HEIGHT,
    descent: newSize * 0.04,
    gapAbove,
    place(centerX, baseline) {
      const left = centerX - total / 2;
      const arrowX = left + widths.old + LEVELUP_LEVELS.gap;
      const newX = arrowX + widths.arrow + LEVELUP_LEVELS.gap + chipSide(newSize);
      return [
        { role: 'previous level', text: texts.old, x: left, baseline, width: widths.old, style: styles.old, minContrast: LARGE_TEXT_CONTRAST },
        // The arrow sits on the digits' middle, not on their baseline.
        { role: 'level arrow', text: texts.arrow, x: arrowX, baseline: baseline - (styles.old.size - styles.arrow.size) * 0.36, width: widths.arrow, style: styles.arrow, minContrast: LARGE_TEXT_CONTRAST },
        { role: 'level', text: texts.new, x: newX, baseline, width: widths.new, style: styles.new, minContrast: LARGE_TEXT_CONTRAST },
      ];
    },
  };
}

/**
 * The level-up card's text: the headline (capitals, letter-spaced), `old → new` levels, the name and
 * the message, centred in the text column and, as a block, on the avatar's middle. Computed once
 * per card: the legibility step measures behind these texts before they are drawn.
 */
export const levelupTextLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
  const width = TEXT_COLUMN.right - TEXT_COLUMN.left;
  const centerX = TEXT_COLUMN.left + width / 2;
  const lines: Line[] = [];
  const headline = scene.headline.trim();
  if (headline !== '') {
    const spacing = Math.round(LEVELUP_HEADLINE.size * LEVELUP_HEADLINE.letterSpacing);
    const style: TextStyle = { size: LEVELUP_HEADLINE.size, weight: 800, color: scene.textColors.label, letterSpacing: spacing };
    lines.push(textLine('headline', fitText(context, headline.toLocaleUpperCase('en'), style, width, LEVELUP_HEADLINE.minSize), 0, SMALL_TEXT_CONTRAST));
  }
  const levels = levelsLine(context, scene, width, LEVELUP_HEADLINE.gapBelow);
  if (levels) lines.push(levels);
  const nameStyle: TextStyle = { size: LEVELUP_NAME.size, weight: 800, color: scene.nameColor };
  lines.push(textLine('name', fitText(context, scene.name, nameStyle, width, LEVELUP_NAME.minSize), LEVELUP_LEVELS.gapBelow, LARGE_TEXT_CONTRAST));
  if (scene.message !== undefined) {
    const style: TextStyle = { size: LEVELUP_MESSAGE.size, weight: 600, color: scene.textColors.xp };
    lines.push(textLine('message', fitText(context, scene.message, style, width, LEVELUP_MESSAGE.minSize), LEVELUP_NAME.gapBelow, SMALL_TEXT_CONTRAST));
  }
  const height = lines.reduce((sum, line, index) => sum + (index === 0 ? 0 : line.gapAbove) + line.height + line.descent, 0);
  let cursor = Math.min(Math.max(AVATAR.centerY - height / 2, LEVELUP_TEXT.top), LEVELUP_TEXT.bottom - height);
  const placed: PlacedText[] = [];
  for (const [index, line] of lines.entries()) {
    cursor += (index === 0 ? 0 : line.gapAbove) + line.height;
    placed.push(...line.place(centerX, cursor));
    cursor += line.descent;
  }
  return placed;
});

export const levelupTextStep: RenderStep = {
  name: 'levelup text',
  draw(context, scene) {
    const runs = levelupTextLayout(context, scene);
    // The new level's chip under its number, when its colour needs one (level-chip.ts).
    const chip = scene.rank ? levelChipColors(scene.rank.levelColor, scene.ground) : undefined;
    const level = runs.find((run) => run.role === 'level');
    if (chip && level) drawLevelChip(context, levelChipRect(level), chip);
    drawPlacedTexts(context, runs, scene.textColors.shadow);
  },
};
