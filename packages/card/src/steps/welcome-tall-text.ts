import type { CanvasRenderingContext2D } from 'canvas';
import { LARGE_TEXT_CONTRAST, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { drawPlacedTexts, layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { WELCOME_TALL_FRAME, WELCOME_TALL_HEADLINE, WELCOME_TALL_MESSAGE, WELCOME_TALL_NAME, WELCOME_TALL_SUBTITLE, WELCOME_TALL_TAG, WELCOME_TALL_TEXT } from '../layout/welcome-tall-layout.ts';
import type { Scene } from '../scene.ts';
import { CASED_SCRIPTS, inCapitals } from '../text/card-labels.ts';
import { fitLines, type LineSizes } from '../text/fit-lines.ts';
import { fitText, measureText, type FittedText, type TextStyle } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

/** Cap height and descender as a share of the size, to stack lines optically (as welcome-text.ts does). */
const CAP_HEIGHT = 0.73;
const DESCENT = 0.22;
/** Capitals have almost nothing under the baseline. */
const CAPITALS_DESCENT = 0.04;

/** One centred line of the block: its fitted text, its role, the contrast it needs and the space above it. */
interface Line {
  role: string;
  fitted: FittedText;
  gap: number;
  descent: number;
  minContrast: number;
}

const line = (role: string, fitted: FittedText, gap: number, minContrast: number, descent = DESCENT): Line => ({ role, fitted, gap, descent, minContrast });

const lineHeight = (entry: Line) => entry.fitted.style.size * (CAP_HEIGHT + entry.descent);
const blockHeight = (lines: readonly Line[]) => lines.reduce((sum, entry, index) => sum + (index === 0 ? 0 : entry.gap) + lineHeight(entry), 0);

/** The headline (the server's welcome) in capitals where the script has them, letter-spaced, as large as fits. */
function headlineLine(context: CanvasRenderingContext2D, scene: Scene): Line | undefined {
  const raw = scene.headline.trim();
  if (raw === '') return undefined;
  const cased = CASED_SCRIPTS.test(raw);
  const text = inCapitals(raw);
  const style = (size: number): TextStyle => ({ size, weight: 800, color: scene.textColors.value, ...(cased ? { letterSpacing: Math.round(size * WELCOME_TALL_HEADLINE.letterSpacing) } : {}) });
  for (let size = WELCOME_TALL_HEADLINE.size; size > WELCOME_TALL_HEADLINE.minSize; size -= 2) {
    const width = measureText(context, text, style(size));
    if (width <= WELCOME_TALL_TEXT.width) return line('headline', { text, style: style(size), width }, 0, LARGE_TEXT_CONTRAST, cased ? CAPITALS_DESCENT : DESCENT);
  }
  return line('headline', fitText(context, text, style(WELCOME_TALL_HEADLINE.minSize), WELCOME_TALL_TEXT.width, WELCOME_TALL_HEADLINE.minSize), 0, LARGE_TEXT_CONTRAST, cased ? CAPITALS_DESCENT : DESCENT);
}

/** The hero: the name on one line, or two broken between words (fit-lines.ts), with the sizes given. */
function nameLines(context: CanvasRenderingContext2D, scene: Scene, sizes: LineSizes | undefined): Line[] {
  const style: TextStyle = { size: WELCOME_TALL_NAME.size, weight: 800, color: scene.nameColor, gradient: scene.nameGradient, family: scene.nameFamily };
  const width = WELCOME_TALL_TEXT.width;
  const fitted = sizes ? fitLines(context, scene.name, style, { first: width, rest: width }, sizes) : [fitText(context, scene.name, style, width, WELCOME_TALL_NAME.twoLineMinSize)];
  return fitted.map((entry, index) => line('name', entry, index === 0 ? WELCOME_TALL_NAME.gap : WELCOME_TALL_NAME.lineGap, LARGE_TEXT_CONTRAST));
}

const secondary = (context: CanvasRenderingContext2D, role: string, text: string, style: TextStyle, minSize: number, gap: number): Line =>
  line(role, fitText(context, text, style, WELCOME_TALL_TEXT.width, minSize), gap, SMALL_TEXT_CONTRAST);

/**
 * The block's lines, roomiest first: the tag under the name and a name of up to two lines; then
 * without the tag; then two smaller lines; then one line cut with "…". The first that fits the room
 * under the avatar is drawn, so the name gives way only after the tag has.
 */
function blockLines(context: CanvasRenderingContext2D, scene: Scene): Line[] {
  const headline = headlineLine(context, scene);
  const after: Line[] = [];
  if (scene.message !== undefined) after.push(secondary(context, 'message', scene.message, { size: WELCOME_TALL_MESSAGE.size, weight: 600, color: scene.textColors.xp }, WELCOME_TALL_MESSAGE.minSize, WELCOME_TALL_MESSAGE.gap));
  if (scene.subtitle !== undefined) after.push(secondary(context, 'subtitle', scene.subtitle, { size: WELCOME_TALL_SUBTITLE.size, weight: 400, color: scene.textColors.subtitle }, WELCOME_TALL_SUBTITLE.minSize, WELCOME_TALL_SUBTITLE.gap));
  const tag = scene.tag === undefined ? [] : [secondary(context, 'tag', scene.tag, { size: WELCOME_TALL_TAG.size, weight: 600, color: scene.tagColor }, WELCOME_TALL_TAG.minSize, WELCOME_TALL_TAG.gap)];
  const twoLines = { minSize: WELCOME_TALL_NAME.minSize, twoLineSize: WELCOME_TALL_NAME.twoLineSize, twoLineMinSize: WELCOME_TALL_NAME.twoLineMinSize };
  const smallerTwoLines = { ...twoLines, twoLineSize: WELCOME_TALL_NAME.twoLineMinSize };
  const attempts: (() => Line[])[] = [
    () => [...nameLines(context, scene, twoLines), ...tag, ...after],
    () => [...nameLines(context, scene, twoLines), ...after],
    () => [...nameLines(context, scene, smallerTwoLines), ...after],
    () => [...nameLines(context, scene, undefined), ...after],
  ];
  const room = WELCOME_TALL_TEXT.bottom - WELCOME_TALL_TEXT.top;
  let lines: Line[] = [];
  for (const attempt of attempts) {
    lines = headline ? [headline, ...attempt()] : attempt();
    if (blockHeight(lines) <= room) break;
  }
  return lines;
}

/**
 * The tall welcome card's text: headline, the name (one or two lines), tag, message and subtitle,
 * each centred on the card, the block centred in the room under the avatar. Computed once per
 * card: the legibility step measures behind these runs before they are drawn.
 */
export const welcomeTallTextLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
  const lines = blockLines(context, scene);
  const room = WELCOME_TALL_TEXT.bottom - WELCOME_TALL_TEXT.top;
  // Never above the room's top: a block that still does not fit runs into the bottom padding, not the avatar.
  let cursor = WELCOME_TALL_TEXT.top + Math.max(0, (room - blockHeight(lines)) / 2);
  const centerX = WELCOME_TALL_FRAME.width / 2;
  return lines.map((entry, index) => {
    cursor += (index === 0 ? 0 : entry.gap) + entry.fitted.style.size * CAP_HEIGHT;
    const { fitted } = entry;
    // drawText adds the letter spacing after the last letter too: the letters alone are centred.
    const x = centerX + (fitted.style.letterSpacing ?? 0) / 2 - fitted.width / 2;
    const placed: PlacedText = { role: entry.role, text: fitted.text, x, baseline: cursor, width: fitted.width, style: fitted.style, minContrast: entry.minContrast };
    cursor += fitted.style.size * entry.descent;
    return placed;
  });
});

export const welcomeTallTextStep: RenderStep = {
  name: 'welcome text',
  draw(context, scene) {
    drawPlacedTexts(context, welcomeTallTextLayout(context, scene), scene.textColors.shadow);
  },
};
