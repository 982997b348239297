import type { CanvasRenderingContext2D } from 'canvas';
import { BADGES, NAME, NAME_BLOCK, SUBTITLE, TAG, TEXT_COLUMN } from '../layout/card-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import { drawText, fitText, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from './render-steps.ts';

const CHIP = { height: 20, padding: 8, gap: 12, textSize: 12, checkSize: 9, color: '#5865f2' } as const;
/** Inter's cap height and descender as a share of the font size, to centre the block optically. */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;

function botChipWidth(context: CanvasRenderingContext2D, scene: Scene): number {
  if (!scene.bot) return 0;
  const label = measureText(context, 'BOT', { size: CHIP.textSize, weight: 800, color: '#fff' });
  return CHIP.padding * 2 + label + (scene.verifiedBot ? CHIP.checkSize + 4 : 0);
}

function drawBotChip(context: CanvasRenderingContext2D, scene: Scene, x: number, nameBaseline: number, nameSize: number): void {
  const width = botChipWidth(context, scene);
  const top = nameBaseline - nameSize * CAP_HEIGHT / 2 - CHIP.height / 2;
  roundedRectPath(context, x, top, width, CHIP.height, 6);
  context.fillStyle = CHIP.color;
  context.fill();
  let cursor = x + CHIP.padding;
  if (scene.verifiedBot) {
    const middle = top + CHIP.height / 2;
    context.beginPath();
    context.moveTo(cursor, middle);
    context.lineTo(cursor + 3, middle + 3);
    context.lineTo(cursor + CHIP.checkSize, middle - 3.5);
    context.lineWidth = 2;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#ffffff';
    context.stroke();
    cursor += CHIP.checkSize + 4;
  }
  drawText(context, 'BOT', cursor, top + CHIP.height / 2 + CHIP.textSize * CAP_HEIGHT / 2, { size: CHIP.textSize, weight: 800, color: '#ffffff' });
}

/** `advance`: the space from the previous line's baseline to this one's. */
type Line = { fitted: FittedText; advance: number };
/** `firstBaseline`: the baseline of the first line (the name). */
type Block = { lines: Line[]; firstBaseline: number };

/** Space kept between the end of the name (or its bot chip) and the badge row. */
const BADGE_CLEARANCE = 16;

/** The name, tag and subtitle lines, sized to fit, centred as a block in the room the rank block leaves. */
function layoutBlock(context: CanvasRenderingContext2D, scene: Scene, nameRoom: number): Block {
  const columnWidth = TEXT_COLUMN.right - TEXT_COLUMN.left;
  const nameStyle: TextStyle = { size: NAME.size, weight: 800, color: scene.nameColor };
  const lines: Line[] = [{ fitted: fitText(context, scene.name, nameStyle, nameRoom, NAME.minSize), advance: 0 }];
  if (scene.tag !== undefined) {
    const tagStyle: TextStyle = { size: TAG.size, weight: 600, color: scene.tagColor };
    lines.push({ fitted: fitText(context, scene.tag, tagStyle, columnWidth, TAG.minSize), advance: TAG.size + 14 });
  }
  if (scene.subtitle !== undefined) {
    // Never larger than a tag that had to shrink: the subtitle is the lesser line.
    const size = Math.min(SUBTITLE.size, (lines[1]?.fitted.style.size ?? SUBTITLE.size));
    const subtitleStyle: TextStyle = { size, weight: 400, color: 'rgba(255, 255, 255, 0.72)' };
    lines.push({ fitted: fitText(context, scene.subtitle, subtitleStyle, columnWidth, SUBTITLE.minSize), advance: SUBTITLE.size + 12 });
  }
  const first = lines[0] as Line;
  const last = lines.at(-1) as Line;
  const firstSize = first.fitted.style.size;
  const stacked = lines.reduce((sum, line) => sum + line.advance, 0);
  const blockHeight = firstSize * CAP_HEIGHT + stacked + last.fitted.style.size * DESCENT;
  const bottom = scene.rank ? NAME_BLOCK.bottomWithRank : NAME_BLOCK.bottomWithoutRank;
  return { lines, firstBaseline: NAME_BLOCK.top + (bottom - NAME_BLOCK.top - blockHeight) / 2 + firstSize * CAP_HEIGHT };
}

/** Whether the name line, as laid out, reaches into the badge row at the top right. */
function nameMeetsBadges(block: Block, scene: Scene, chipWidth: number): boolean {
  if (scene.badgesWidth === 0) return false;
  const name = (block.lines[0] as Line).fitted;
  const nameTop = block.firstBaseline - name.style.size * CAP_HEIGHT;
  const badgesBottom = BADGES.top + BADGES.size + (scene.badgesFrame ? BADGES.framePadding : 0);
  const nameRight = TEXT_COLUMN.left + name.width + (chipWidth > 0 ? CHIP.gap + chipWidth : 0);
  const badgesLeft = TEXT_COLUMN.right - scene.badgesWidth;
  return nameTop < badgesBottom + 6 && nameRight > badgesLeft - BADGE_CLEARANCE;
}

export const textStep: RenderStep = {
  name: 'text',
  draw(context, scene) {
    const columnWidth = TEXT_COLUMN.right - TEXT_COLUMN.left;
    const chipWidth = botChipWidth(context, scene);
    const chipRoom = chipWidth > 0 ? chipWidth + CHIP.gap : 0;
    // The name gets the whole column unless, placed there, it would run into the badge row: names
    // usually sit below the badges, and a long one should not be cut short for nothing.
    let block = layoutBlock(context, scene, columnWidth - chipRoom);
    if (nameMeetsBadges(block, scene, chipWidth)) {
      block = layoutBlock(context, scene, columnWidth - chipRoom - scene.badgesWidth - BADGE_CLEARANCE);
    }

    let baseline = block.firstBaseline;
    context.save();
    context.shadowColor = 'rgba(0, 0, 0, 0.35)';
    context.shadowBlur = 8;
    context.shadowOffsetY = 1;
    for (const [index, line] of block.lines.entries()) {
      baseline += line.advance;
      const width = drawText(context, line.fitted.text, TEXT_COLUMN.left, baseline, line.fitted.style);
      if (index === 0 && chipWidth > 0) {
        context.save();
        context.shadowColor = 'transparent';
        drawBotChip(context, scene, TEXT_COLUMN.left + width + CHIP.gap, baseline, line.fitted.style.size);
        context.restore();
      }
    }
    context.restore();
  },
};
