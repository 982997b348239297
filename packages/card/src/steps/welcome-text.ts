import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { LARGE_TEXT_CONTRAST, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { BADGES } from '../layout/card-layout.ts';
import { drawPlacedTexts, layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { WELCOME_HEADLINE, WELCOME_MESSAGE, WELCOME_NAME, WELCOME_RULE, WELCOME_SUBTITLE, WELCOME_TAG, WELCOME_TEXT, WELCOME_TEXT_COLUMN } from '../layout/welcome-layout.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { CASED_SCRIPTS, inCapitals } from '../text/card-labels.ts';
import { fitText, isRightToLeft, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

/** Inter's cap height and descender as a share of the font size, to place lines optically. */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;

/**
 * One row of the centred block: `ascent` above its baseline, `descent` below, `gap` above it (not
 * counted for the first row), and what it puts where once its baseline is known: texts, or the
 * accent rule.
 */
type Row = {
  ascent: number;
  descent: number;
  gap: number;
  place(centerX: number, baseline: number): { texts: PlacedText[]; rule?: RuleBox };
};

type RuleBox = { x: number; y: number };

/** A text centred on `centerX`; drawText counts the letter spacing after the last letter too, so the letters alone are centred. */
function centeredText(role: string, fitted: FittedText, centerX: number, baseline: number, minContrast: number): PlacedText {
  const x = centerX + (fitted.style.letterSpacing ?? 0) / 2 - fitted.width / 2;
  return { role, text: fitted.text, x, baseline, width: fitted.width, style: fitted.style, minContrast };
}

const centered = (role: string, fitted: FittedText, gap: number, minContrast: number, descent = DESCENT): Row => ({
  ascent: fitted.style.size * CAP_HEIGHT,
  descent: fitted.style.size * descent,
  gap,
  place: (centerX, baseline) => ({ texts: [centeredText(role, fitted, centerX, baseline, minContrast)] }),
});

/** Letter spacing grows and shrinks with the headline's size. */
const headlineStyle = (scene: Scene, size: number, spaced: boolean): TextStyle => ({
  size,
  weight: 800,
  color: scene.textColors.value,
  ...(spaced ? { letterSpacing: Math.round(size * WELCOME_HEADLINE.letterSpacing) } : {}),
});

/** The headline at the largest size that fits the column, then cut with "…" at the smallest. */
function fitHeadline(context: CanvasRenderingContext2D, scene: Scene, width: number): { fitted: FittedText; cased: boolean } | undefined {
  const raw = scene.headline.trim();
  if (raw === '') return undefined;
  const cased = CASED_SCRIPTS.test(raw);
  const text = inCapitals(raw);
  for (let size = WELCOME_HEADLINE.size; size > WELCOME_HEADLINE.minSize; size -= 2) {
    const style = headlineStyle(scene, size, cased);
    const measured = measureText(context, text, style);
    if (measured <= width) return { fitted: { text, style, width: measured }, cased };
  }
  return { fitted: fitText(context, text, headlineStyle(scene, WELCOME_HEADLINE.minSize, cased), width, WELCOME_HEADLINE.minSize), cased };
}

function headlineRow(headline: { fitted: FittedText; cased: boolean }): Row {
  // Capitals sit on the baseline: almost no descender room under them.
  return centered('headline', headline.fitted, 0, LARGE_TEXT_CONTRAST, headline.cased ? 0.04 : DESCENT);
}

/** The short rule under the headline, in the avatar ring's colors. */
const ruleRow: Row = {
  ascent: WELCOME_RULE.height,
  descent: 0,
  gap: WELCOME_RULE.gapAbove,
  place: (centerX, baseline) => ({ texts: [], rule: { x: centerX - WELCOME_RULE.width / 2, y: baseline - WELCOME_RULE.height } }),
};

function drawRule(context: CanvasRenderingContext2D, scene: Scene, rule: RuleBox): void {
  roundedRectPath(context, rule.x, rule.y, WELCOME_RULE.width, WELCOME_RULE.height, WELCOME_RULE.height / 2);
  context.fillStyle = withStops(context.createLinearGradient(rule.x, 0, rule.x + WELCOME_RULE.width, 0), [
    [0, rgba(lighten(scene.palette.primary, 0.35))],
    [1, rgba(lighten(scene.palette.secondary, 0.1))],
  ]);
  context.fill();
}

/**
 * The name with the tag beside it on one line (before it for a right-to-left name); when both do
 * not fit, the tag gives way first (down to a third of the line). With `withTag` false, the name
 * alone, with the whole line.
 */
function nameRow(context: CanvasRenderingContext2D, scene: Scene, width: number, gap: number, withTag: boolean): Row {
  const nameStyle: TextStyle = { size: WELCOME_NAME.size, weight: 800, color: scene.nameColor, gradient: scene.nameGradient, family: scene.nameFamily };
  const tagStyle: TextStyle = { size: WELCOME_TAG.size, weight: 600, color: scene.tagColor };
  const tag = withTag ? scene.tag : undefined;
  let tagFit: FittedText | undefined;
  let nameRoom = width;
  if (tag !== undefined) {
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
    place(centerX, baseline) {
      const left = centerX - total / 2;
      const name = (x: number): PlacedText => ({ role: 'name', text: nameFit.text, x, baseline, width: nameFit.width, style: nameFit.style, minContrast: LARGE_TEXT_CONTRAST });
      if (!tagFit) return { texts: [name(left)] };
      const tagAt = (x: number): PlacedText => ({ role: 'tag', text: tagFit.text, x, baseline, width: tagFit.width, style: tagFit.style, minContrast: SMALL_TEXT_CONTRAST });
      // The tag follows the name in its reading direction: on the left of a right-to-left name.
      if (isRightToLeft(scene.name)) return { texts: [tagAt(left), name(left + tagFit.width + WELCOME_TAG.gap)] };
      return { texts: [name(left), tagAt(left + nameFit.width + WELCOME_TAG.gap)] };
    },
  };
}

/** Whether the name and the tag both fit on one line at their full sizes. */
function tagFitsBeside(context: CanvasRenderingContext2D, scene: Scene, width: number): boolean {
  if (scene.tag === undefined) return true;
  const name = measureText(context, scene.name, { size: WELCOME_NAME.size, weight: 800, color: scene.nameColor, family: scene.nameFamily });
  const tag = measureText(context, scene.tag, { size: WELCOME_TAG.size, weight: 600, color: scene.tagColor });
  return name + WELCOME_TAG.gap + tag <= width;
}

/**
 * The block's rows. The name is the card's focus, so a tag that does not fit beside it at full
 * size takes a line of its own under it (`tagBelow`) rather than shrinking the name.
 */
function rows(context: CanvasRenderingContext2D, scene: Scene, width: number, tagBelow: boolean): { list: Row[]; headlineWidth: number } {
  const headline = fitHeadline(context, scene, width);
  const list: Row[] = headline ? [headlineRow(headline), ruleRow] : [];
  list.push(nameRow(context, scene, width, WELCOME_RULE.gapBelow, !tagBelow));
  if (tagBelow && scene.tag !== undefined) {
    const style: TextStyle = { size: WELCOME_TAG.size, weight: 600, color: scene.tagColor };
    list.push(centered('tag', fitText(context, scene.tag, style, width, WELCOME_TAG.minSize), WELCOME_TAG.lineGap, SMALL_TEXT_CONTRAST));
  }
  if (scene.message !== undefined) {
    const style: TextStyle = { size: WELCOME_MESSAGE.size, weight: 600, color: scene.textColors.xp };
    list.push(centered('message', fitText(context, scene.message, style, width, WELCOME_MESSAGE.minSize), WELCOME_MESSAGE.gap, SMALL_TEXT_CONTRAST));
  }
  if (scene.subtitle !== undefined) {
    const style: TextStyle = { size: WELCOME_SUBTITLE.size, weight: 400, color: scene.textColors.subtitle };
    list.push(centered('subtitle', fitText(context, scene.subtitle, style, width, WELCOME_SUBTITLE.minSize), WELCOME_SUBTITLE.gap, SMALL_TEXT_CONTRAST));
  }
  return { list, headlineWidth: headline?.fitted.width ?? width };
}

const blockHeight = (list: readonly Row[]) => list.reduce((sum, row, index) => sum + (index === 0 ? 0 : row.gap) + row.ascent + row.descent, 0);

/** Whether the first row, centred in the column, reaches under the badge row at the top right. */
function reachesBadges(scene: Scene, firstWidth: number, centerX: number): boolean {
  return scene.badgesWidth > 0 && centerX + firstWidth / 2 > WELCOME_TEXT_COLUMN.right - scene.badgesWidth - WELCOME_TEXT.badgeClearance;
}

/**
 * The welcome layout's text: headline (capitals, letter-spaced), an accent rule, the name with its
 * tag, the message and the subtitle, centred in the text column and, as a block, on the avatar's
 * middle; pushed down under the badge row when the first line would run into it. Computed once
 * per card: the legibility step measures behind these texts before they are drawn.
 */
export const welcomeTextLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): { placed: PlacedText[]; rule: RuleBox | undefined } => {
  const width = WELCOME_TEXT_COLUMN.right - WELCOME_TEXT_COLUMN.left;
  const centerX = WELCOME_TEXT_COLUMN.left + width / 2;
  const bottom = scene.date.shown ? WELCOME_TEXT.bottomAboveDate : WELCOME_TEXT.bottom;
  // The tag's own line only while the whole block still fits its room; else beside the name, giving way.
  let block = rows(context, scene, width, !tagFitsBeside(context, scene, width));
  if (blockHeight(block.list) > bottom - WELCOME_TEXT.top) block = rows(context, scene, width, false);
  const { list, headlineWidth } = block;
  const height = blockHeight(list);
  let top = Math.min(Math.max(scene.avatar.box.centerY - height / 2, WELCOME_TEXT.top), bottom - height);
  if (reachesBadges(scene, headlineWidth, centerX)) {
    const badgesBottom = BADGES.top + BADGES.size + (scene.badgesFrame ? BADGES.framePadding : 0);
    top = Math.max(top, badgesBottom + WELCOME_TEXT.badgeClearance);
  }
  const placed: PlacedText[] = [];
  let rule: RuleBox | undefined;
  let cursor = top;
  for (const [index, row] of list.entries()) {
    cursor += (index === 0 ? 0 : row.gap) + row.ascent;
    const put = row.place(centerX, cursor);
    placed.push(...put.texts);
    rule ??= put.rule;
    cursor += row.descent;
  }
  return { placed, rule };
});

export const welcomeTextStep: RenderStep = {
  name: 'welcome text',
  draw(context, scene) {
    const { placed, rule } = welcomeTextLayout(context, scene);
    if (rule) drawRule(context, scene, rule);
    drawPlacedTexts(context, placed, scene.textColors.shadow);
  },
};
