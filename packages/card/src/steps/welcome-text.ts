import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { AVATAR, BADGES, TEXT_COLUMN } from '../layout/card-layout.ts';
import { WELCOME_HEADLINE, WELCOME_MESSAGE, WELCOME_NAME, WELCOME_RULE, WELCOME_SUBTITLE, WELCOME_TAG, WELCOME_TEXT } from '../layout/welcome-layout.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { drawText, fitText, isRightToLeft, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
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

/**
 * Scripts written with capitals and unjoined letters, which take the capitals-and-letter-spacing
 * treatment. Joined (Arabic), complex (Devanagari, Thai) and CJK scripts keep their own shapes:
 * drawn letter by letter they would fall apart.
 */
const CASED_SCRIPTS = /^[\P{L}\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}]*$/u;

/** Letter spacing grows and shrinks with the headline's size. */
const headlineStyle = (size: number, spaced: boolean): TextStyle => ({
  size,
  weight: 800,
  color: '#ffffff',
  ...(spaced ? { letterSpacing: Math.round(size * WELCOME_HEADLINE.letterSpacing) } : {}),
});

/** The headline at the largest size that fits the column, then cut with "…" at the smallest. */
function fitHeadline(context: CanvasRenderingContext2D, scene: Scene, width: number): { fitted: FittedText; cased: boolean } | undefined {
  const raw = scene.headline.trim();
  if (raw === '') return undefined;
  const cased = CASED_SCRIPTS.test(raw);
  const text = cased ? raw.toUpperCase() : raw;
  for (let size = WELCOME_HEADLINE.size; size > WELCOME_HEADLINE.minSize; size -= 2) {
    const style = headlineStyle(size, cased);
    const measured = measureText(context, text, style);
    if (measured <= width) return { fitted: { text, style, width: measured }, cased };
  }
  return { fitted: fitText(context, text, headlineStyle(WELCOME_HEADLINE.minSize, cased), width, WELCOME_HEADLINE.minSize), cased };
}

function headlineRow(headline: { fitted: FittedText; cased: boolean }): Row {
  // Capitals sit on the baseline: almost no descender room under them.
  return centered(headline.fitted, 0, headline.cased ? 0.04 : DESCENT);
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

/** The name with the tag beside it on one line (before it for a right-to-left name); when both do not fit, the tag gives way first (down to a third of the line). */
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
      // The tag follows the name in its reading direction: on the left of a right-to-left name.
      if (tagFit && isRightToLeft(scene.name)) {
        drawText(context, tagFit.text, left, baseline, tagFit.style);
        drawText(context, nameFit.text, left + tagFit.width + WELCOME_TAG.gap, baseline, nameFit.style);
        return;
      }
      drawText(context, nameFit.text, left, baseline, nameFit.style);
      if (tagFit) drawText(context, tagFit.text, left + nameFit.width + WELCOME_TAG.gap, baseline, tagFit.style);
    },
  };
}

function rows(context: CanvasRenderingContext2D, scene: Scene, width: number): { list: Row[]; headlineWidth: number } {
  const headline = fitHeadline(context, scene, width);
  const list: Row[] = headline ? [headlineRow(headline), ruleRow(scene)] : [];
  list.push(nameRow(context, scene, width, WELCOME_RULE.gapBelow));
  if (scene.message && scene.message.trim() !== '') {
    const style: TextStyle = { size: WELCOME_MESSAGE.size, weight: 600, color: 'rgba(255, 255, 255, 0.88)' };
    list.push(centered(fitText(context, scene.message, style, width, WELCOME_MESSAGE.minSize), 12));
  }
  if (scene.subtitle && scene.subtitle.trim() !== '') {
    const style: TextStyle = { size: WELCOME_SUBTITLE.size, weight: 400, color: 'rgba(255, 255, 255, 0.72)' };
    list.push(centered(fitText(context, scene.subtitle, style, width, WELCOME_SUBTITLE.minSize), 10));
  }
  return { list, headlineWidth: headline?.fitted.width ?? width };
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
    const { list, headlineWidth } = rows(context, scene, width);
    const height = list.reduce((sum, row, index) => sum + (index === 0 ? 0 : row.gap) + row.ascent + row.descent, 0);
    let top = Math.min(Math.max(AVATAR.centerY - height / 2, WELCOME_TEXT.top), WELCOME_TEXT.bottom - height);
    if (reachesBadges(scene, headlineWidth, centerX)) {
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
