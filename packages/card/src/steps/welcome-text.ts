import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { AVATAR, BADGES, TEXT_COLUMN } from '../layout/card-layout.ts';
import { WELCOME_HEADLINE, WELCOME_MESSAGE, WELCOME_NAME, WELCOME_RULE, WELCOME_SUBTITLE, WELCOME_TAG, WELCOME_TEXT } from '../layout/welcome-layout.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { drawText, fitText, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

/** Inter's cap height and descender as a share of the font size, to place lines optically. */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;

/**
 * One row of the centred block: `ascent` above its baseline, `descent` below, `gap` above it (not
 * counted for the first row), and how to draw it once its baseline is known.
 */
type Row = { ascent: number; descent: number; gap: number; draw(context: CanvasRenderingContext2D, centerX: number, baseline: number): void };

const centered = (fitted: FittedText, gap: number, descent = DESCENT): Row => ({
  ascent: fitted.style.size * CAP_HEIGHT,
  descent: fitted.style.size * descent,
  gap,
  draw(context, centerX, baseline) {
    // drawText counts the letter spacing after the last letter too; centre on the letters alone.
    drawText(context, fitted.text, centerX + (fitted.style.letterSpacing ?? 0) / 2, baseline, fitted.style, 'center');
  },
});

function headlineRow(context: CanvasRenderingContext2D, scene: Scene, width: number): Row | undefined {
  if (scene.headline.trim() === '') return undefined;
  const style: TextStyle = { size: WELCOME_HEADLINE.size, weight: 800, color: '#ffffff', letterSpacing: WELCOME_HEADLINE.letterSpacing };
  // Capitals sit on the baseline: no descender room under them.
  return centered(fitText(context, scene.headline.trim().toUpperCase(), style, width, WELCOME_HEADLINE.minSize), 0, 0.04);
}

/** The short rule under the headline, in the avatar ring's colors. */
function ruleRow(scene: Scene): Row {
  return {
    ascent: WELCOME_RULE.height,
    descent: 0,
    gap: WELCOME_RULE.gapAbove,
    draw(context, centerX, baseline) {
      const left = centerX - WELCOME_RULE.width / 2;
      roundedRectPath(context, left, baseline - WELCOME_RULE.height, WELCOME_RULE.width, WELCOME_RULE.height, WELCOME_RULE.height / 2);
      context.fillStyle = withStops(context.createLinearGradient(left, 0, left + WELCOME_RULE.width, 0), [
        [0, rgba(lighten(scene.palette.primary, 0.35))],
        [1, rgba(lighten(scene.palette.secondary, 0.1))],
      ]);
      context.fill();
    },
  };
}

/** The name with the tag beside it on one line; when both do not fit, the tag gives way first (down to a third of the line). */
function nameRow(context: CanvasRenderingContext2D, scene: Scene, width: number, gap: number): Row {
  const nameStyle: TextStyle = { size: WELCOME_NAME.size, weight: 800, color: scene.nameColor };
  const tagStyle: TextStyle = { size: WELCOME_TAG.size, weight: 600, color: scene.tagColor };
  const tag = scene.tag.trim();
  let tagFit: FittedText | undefined;
  let nameRoom = width;
  if (tag !== '') {
    const nameWidth = measureText(context, scene.name, nameStyle);
    tagFit = fitText(context, tag, tagStyle, Math.max(width * 0.32, width - nameWidth - WELCOME_TAG.gap), WELCOME_TAG.minSize);
    nameRoom = width - tagFit.width - WELCOME_TAG.gap;
  }
  const nameFit = fitText(context, scene.name, nameStyle, nameRoom, WELCOME_NAME.minSize);
  const total = nameFit.width + (tagFit ? WELCOME_TAG.gap + tagFit.width : 0);
  return {
    ascent: nameFit.style.size * CAP_HEIGHT,
    descent: nameFit.style.size * DESCENT,
    gap,
    draw(context, centerX, baseline) {
      const left = centerX - total / 2;
      drawText(context, nameFit.text, left, baseline, nameFit.style);
      if (tagFit) drawText(context, tagFit.text, left + nameFit.width + WELCOME_TAG.gap, baseline, tagFit.style);
    },
  };
}

function rows(context: CanvasRenderingContext2D, scene: Scene, width: number): Row[] {
  const headline = headlineRow(context, scene, width);
  const list: Row[] = headline ? [headline, ruleRow(scene)] : [];
  list.push(nameRow(context, scene, width, WELCOME_RULE.gapBelow));
  if (scene.message && scene.message.trim() !== '') {
    const style: TextStyle = { size: WELCOME_MESSAGE.size, weight: 600, color: 'rgba(255, 255, 255, 0.88)' };
    list.push(centered(fitText(context, scene.message, style, width, WELCOME_MESSAGE.minSize), 12));
  }
  if (scene.subtitle && scene.subtitle.trim() !== '') {
    const style: TextStyle = { size: WELCOME_SUBTITLE.size, weight: 400, color: 'rgba(255, 255, 255, 0.72)' };
    list.push(centered(fitText(context, scene.subtitle, style, width, WELCOME_SUBTITLE.minSize), 10));
  }
  return list;
}

/** Whether the first row, centred in the column, reaches under the badge row at the top right. */
function reachesBadges(scene: Scene, firstWidth: number, centerX: number): boolean {
  return scene.badgesWidth > 0 && centerX + firstWidth / 2 > TEXT_COLUMN.right - scene.badgesWidth - WELCOME_TEXT.badgeClearance;
}

/**
 * The welcome layout's text: headline (capitals, letter-spaced), an accent rule, the name with its
 * tag, the message and the subtitle, centred in the text column and, as a block, on the avatar's
 * middle; pushed down under the badge row when the first line would run into it.
 */
export const welcomeTextStep: RenderStep = {
  name: 'welcome text',
  draw(context, scene) {
    const width = TEXT_COLUMN.right - TEXT_COLUMN.left;
    const centerX = TEXT_COLUMN.left + width / 2;
    const list = rows(context, scene, width);
    const height = list.reduce((sum, row, index) => sum + (index === 0 ? 0 : row.gap) + row.ascent + row.descent, 0);
    let top = Math.min(Math.max(AVATAR.centerY - height / 2, WELCOME_TEXT.top), WELCOME_TEXT.bottom - height);
    const firstWidth = scene.headline.trim() === '' ? width : measureText(context, scene.headline.trim().toUpperCase(), { size: WELCOME_HEADLINE.size, weight: 800, color: '#fff', letterSpacing: WELCOME_HEADLINE.letterSpacing });
    if (reachesBadges(scene, Math.min(width, firstWidth), centerX)) {
      const badgesBottom = BADGES.top + BADGES.size + (scene.badgesFrame ? BADGES.framePadding : 0);
      top = Math.max(top, badgesBottom + WELCOME_TEXT.badgeClearance);
    }

    context.save();
    context.shadowColor = 'rgba(0, 0, 0, 0.35)';
    context.shadowBlur = 8;
    context.shadowOffsetY = 1;
    let cursor = top;
    for (const [index, row] of list.entries()) {
      cursor += (index === 0 ? 0 : row.gap) + row.ascent;
      row.draw(context, centerX, cursor);
      cursor += row.descent;
    }
    context.restore();
  },
};
