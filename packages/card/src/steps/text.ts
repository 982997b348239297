import type { CanvasRenderingContext2D } from 'canvas';
import { LARGE_TEXT_CONTRAST, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { BADGES, MIN_TEXT_SIZE, NAME, NAME_BLOCK, SUBTITLE, TAG, TEXT_COLUMN } from '../layout/card-layout.ts';
import { drawPlacedTexts, layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import { inCapitals } from '../text/card-labels.ts';
import { fitLines } from '../text/fit-lines.ts';
import { drawText, fitText, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from './render-steps.ts';

/** The `BOT` chip: its label at the type scale's smallest size, like every secondary text. */
const CHIP = { height: 34, padding: 12, gap: 14, textSize: MIN_TEXT_SIZE, checkSize: 15, checkGap: 6, color: '#5865f2' } as const;
/** Inter's cap height and descender as a share of the font size, to centre the block optically. */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;

const chipStyle: TextStyle = { size: CHIP.textSize, weight: 800, color: '#ffffff' };

function botChipWidth(context: CanvasRenderingContext2D, scene: Scene): number {
  if (!scene.bot) return 0;
  return CHIP.padding * 2 + measureText(context, inCapitals(scene.words.bot), chipStyle) + (scene.verifiedBot ? CHIP.checkSize + CHIP.checkGap : 0);
}

function drawBotChip(context: CanvasRenderingContext2D, scene: Scene, x: number, nameBaseline: number, nameSize: number): void {
  const width = botChipWidth(context, scene);
  const top = nameBaseline - (nameSize * CAP_HEIGHT) / 2 - CHIP.height / 2;
  roundedRectPath(context, x, top, width, CHIP.height, 9);
  context.fillStyle = CHIP.color;
  context.fill();
  let cursor = x + CHIP.padding;
  if (scene.verifiedBot) {
    const middle = top + CHIP.height / 2;
    context.beginPath();
    context.moveTo(cursor, middle);
    const check = CHIP.checkSize;
    context.lineTo(cursor + check * 0.36, middle + check * 0.36);
    context.lineTo(cursor + check, middle - check * 0.41);
    context.lineWidth = 3;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#ffffff';
    context.stroke();
    cursor += CHIP.checkSize + CHIP.checkGap;
  }
  drawText(context, inCapitals(scene.words.bot), cursor, top + CHIP.height / 2 + (CHIP.textSize * CAP_HEIGHT) / 2, chipStyle);
}

/** `advance`: the space from the previous line's baseline to this one's. */
type Line = { role: string; fitted: FittedText; advance: number; minContrast: number };
type Block = { lines: Line[]; top: number; height: number };
/** Room for the name's first line (beside the bot chip, maybe under the badge row) and for its second. */
type NameRoom = { first: number; rest: number };

/** Space kept between the end of the name (or its bot chip) and the badge row. */
const BADGE_CLEARANCE = 16;

/**
 * The name (one or two lines), tag and subtitle, sized to fit and centred as a block in the room
 * the rank block leaves. Two name lines only when the whole block still fits that room.
 */
function layoutBlock(context: CanvasRenderingContext2D, scene: Scene, nameRoom: NameRoom, allowTwoLines: boolean): Block {
  const columnWidth = TEXT_COLUMN.right - TEXT_COLUMN.left;
  const nameStyle: TextStyle = { size: NAME.size, weight: 800, color: scene.nameColor, gradient: scene.nameGradient, family: scene.nameFamily };
  const nameLines = allowTwoLines ? fitLines(context, scene.name, nameStyle, nameRoom, NAME) : [fitText(context, scene.name, nameStyle, nameRoom.first, NAME.minSize)];
  const lines: Line[] = nameLines.map((fitted, index) => ({
    role: 'name',
    fitted,
    advance: index === 0 ? 0 : fitted.style.size + NAME.lineGap,
    minContrast: LARGE_TEXT_CONTRAST,
  }));
  if (scene.tag !== undefined) {
    const tagStyle: TextStyle = { size: TAG.size, weight: 600, color: scene.tagColor };
    lines.push({ role: 'tag', fitted: fitText(context, scene.tag, tagStyle, columnWidth, TAG.minSize), advance: TAG.size + TAG.gap, minContrast: SMALL_TEXT_CONTRAST });
  }
  if (scene.subtitle !== undefined) {
    // Never larger than a tag that had to shrink: the subtitle is the lesser line.
    const tagSize = lines.find((line) => line.role === 'tag')?.fitted.style.size ?? SUBTITLE.size;
    const subtitleStyle: TextStyle = { size: Math.max(SUBTITLE.minSize, Math.min(SUBTITLE.size, tagSize - 2)), weight: 400, color: scene.textColors.subtitle };
    lines.push({ role: 'subtitle', fitted: fitText(context, scene.subtitle, subtitleStyle, columnWidth, SUBTITLE.minSize), advance: SUBTITLE.size + SUBTITLE.gap, minContrast: SMALL_TEXT_CONTRAST });
  }
  const first = lines[0] as Line;
  const last = lines.at(-1) as Line;
  const stacked = lines.reduce((sum, line) => sum + line.advance, 0);
  const height = first.fitted.style.size * CAP_HEIGHT + stacked + last.fitted.style.size * DESCENT;
  const bottom = scene.rank ? NAME_BLOCK.bottomWithRank : NAME_BLOCK.bottomWithoutRank;
  return { lines, top: NAME_BLOCK.top + (bottom - NAME_BLOCK.top - height) / 2, height };
}

function blockFits(block: { height: number }, scene: Scene): boolean {
  return block.height <= (scene.rank ? NAME_BLOCK.bottomWithRank : NAME_BLOCK.bottomWithoutRank) - NAME_BLOCK.top;
}

/** Whether a name line, as laid out, reaches into the badge row at the top right. */
function nameMeetsBadges(block: Block, scene: Scene, chipWidth: number): boolean {
  if (scene.badgesWidth === 0) return false;
  const badgesBottom = BADGES.top + BADGES.size + (scene.badgesFrame ? BADGES.framePadding : 0);
  const badgesLeft = TEXT_COLUMN.right - scene.badgesWidth;
  let baseline = block.top + (block.lines[0] as Line).fitted.style.size * CAP_HEIGHT;
  for (const [index, line] of block.lines.entries()) {
    if (line.role !== 'name') break;
    baseline += line.advance;
    const top = baseline - line.fitted.style.size * CAP_HEIGHT;
    const right = TEXT_COLUMN.left + line.fitted.width + (index === 0 && chipWidth > 0 ? CHIP.gap + chipWidth : 0);
    if (top < badgesBottom + 6 && right > badgesLeft - BADGE_CLEARANCE) return true;
  }
  return false;
}

interface TextBlockLayout {
  placed: PlacedText[];
  chip: { x: number; baseline: number; nameSize: number } | undefined;
}

/** Where the name, tag, subtitle and bot chip go (computed once per card). */
export const textBlockLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): TextBlockLayout => {
  const columnWidth = TEXT_COLUMN.right - TEXT_COLUMN.left;
  const chipWidth = botChipWidth(context, scene);
  const chipRoom = chipWidth > 0 ? chipWidth + CHIP.gap : 0;
  const place = (nameRoom: NameRoom) => {
    const twoLines = layoutBlock(context, scene, nameRoom, true);
    return blockFits(twoLines, scene) ? twoLines : layoutBlock(context, scene, nameRoom, false);
  };
  // The name gets the whole column unless, placed there, it would run into the badge row: names
  // usually sit below the badges, and a long one should not be cut short for nothing. Under the
  // badges, only the first line gives way, unless a second one still reaches them.
  const besideBadges = columnWidth - scene.badgesWidth - BADGE_CLEARANCE;
  let block = place({ first: columnWidth - chipRoom, rest: columnWidth });
  if (nameMeetsBadges(block, scene, chipWidth)) block = place({ first: besideBadges - chipRoom, rest: columnWidth });
  if (nameMeetsBadges(block, scene, chipWidth)) block = place({ first: besideBadges - chipRoom, rest: besideBadges });

  let baseline = block.top + (block.lines[0] as Line).fitted.style.size * CAP_HEIGHT;
  const placed: PlacedText[] = [];
  let chip: TextBlockLayout['chip'];
  for (const line of block.lines) {
    baseline += line.advance;
    placed.push({ role: line.role, text: line.fitted.text, x: TEXT_COLUMN.left, baseline, width: line.fitted.width, style: line.fitted.style, minContrast: line.minContrast });
    // The chip follows the name's first line.
    if (line.role === 'name' && chip === undefined && chipWidth > 0) chip = { x: TEXT_COLUMN.left + line.fitted.width + CHIP.gap, baseline, nameSize: line.fitted.style.size };
  }
  return { placed, chip };
});

export const textStep: RenderStep = {
  name: 'text',
  draw(context, scene) {
    const { placed, chip } = textBlockLayout(context, scene);
    drawPlacedTexts(context, placed, scene.textColors.shadow);
    if (chip) drawBotChip(context, scene, chip.x, chip.baseline, chip.nameSize);
  },
};
