import { CARD_FONT_FAMILIES, DEFAULT_CARD_FONT_FAMILY } from '@utility-api/render-jobs';
import type { CanvasGradient, CanvasRenderingContext2D } from 'canvas';
import { textMeasurementCache, type TextMeasurement } from '../cache/card-caches.ts';
import { emojiGlyph, emojiGlyphAtSize } from './emoji-glyphs.ts';
import { familySizeFactor, familySpacing } from './family-metrics.ts';
import { PLAIN, styledPieces, type LetterEmphasis } from './math-letters.ts';

/** After the card's family, Pango finds the script fonts registered beside it for anything the family lacks. */
const FALLBACK_STACK = ['Inter', 'Noto Sans', 'Noto Sans CJK JP', 'Noto Sans Symbols', 'Noto Sans Symbols 2', 'Noto Sans Math'];

/** The family mathematical monospace letters (𝚖𝚘𝚗𝚘) are drawn in. */
const MONOSPACE_FAMILY = CARD_FONT_FAMILIES['jetbrains-mono'].name;

/** The family of a context no card has claimed (a leaderboard's, a measuring scratch context). */
const DEFAULT_FAMILY = CARD_FONT_FAMILIES[DEFAULT_CARD_FONT_FAMILY].name;

/**
 * The family each card's drawing context draws its text in (the scene's `fontFamily`), set where
 * the context is made (render-card.ts `cardContext`). It travels with the context rather than in
 * every TextStyle (the steps build their styles in many places and need not know the family) or in
 * a module variable (two cards drawn interleaved, as an animated card's layers between a still
 * card's steps, would then take each other's family). Weakly held: the context's canvas owns it.
 */
const contextFamilies = new WeakMap<CanvasRenderingContext2D, string>();

/** Makes every text measured and drawn on `context` use `family` first (then the fallbacks); returns the context. */
export function drawInFamily(context: CanvasRenderingContext2D, family: string): CanvasRenderingContext2D {
  contextFamilies.set(context, family);
  return context;
}

/** The family `context` draws text in: its card's, else the default family. */
export function cardFamilyOf(context: CanvasRenderingContext2D): string {
  return contextFamilies.get(context) ?? DEFAULT_FAMILY;
}

export interface TextStyle {
  size: number;
  weight: 400 | 600 | 700 | 800 | 900;
  color: string;
  /** The family's italic face (Pango slants the upright one where the family has none). */
  italic?: boolean;
  /** Extra space between letters, in pixels (used by small caps labels). */
  letterSpacing?: number;
  /** A family tried before the card's (`experimentalDisplayNameStyles`' name font); the card's and the fallbacks follow. */
  family?: string | undefined;
  /** Colours filling the text left to right instead of `color` (a role gradient); `color` stays what legibility measures. */
  gradient?: readonly string[] | undefined;
}

type MeasuredRun = TextMeasurement['runs'][number];

/** Emoji boxes relative to the font size: a touch taller than capitals, sitting on the baseline. */
const EMOJI_HEIGHT = 1.08;
const EMOJI_DESCENT = 0.14;
const EMOJI_GAP = 0.06;

/** The weight bold mathematical letters take: clearly heavier than the text around them (the name is already 800). */
const BOLDER: Record<TextStyle['weight'], TextStyle['weight']> = { 400: 700, 600: 800, 700: 900, 800: 900, 900: 900 };

/** A transparent shadow colour: node-canvas then skips its shadow pass altogether. */
const NO_SHADOW = 'rgba(0, 0, 0, 0)';

const quoted = (family: string) => `"${family}"`;

/**
 * The CSS font of a style: its family first, then the card's, then the fallbacks. The size is the
 * style's size in the default family, adjusted to the first family's x-height (family-metrics.ts),
 * so a line reads as large in EB Garamond or Press Start 2P as in Inter.
 */
function fontFor(style: Pick<TextStyle, 'size' | 'weight' | 'italic' | 'family'>, cardFamily: string, emphasis: LetterEmphasis = PLAIN): string {
  const families = [...new Set([...(emphasis.monospace ? [MONOSPACE_FAMILY] : []), ...(style.family ? [style.family] : []), cardFamily, ...FALLBACK_STACK])];
  const italic = style.italic === true || emphasis.italic;
  const size = style.size * familySizeFactor(families[0] ?? cardFamily);
  return `${italic ? 'italic ' : ''}${emphasis.bold ? BOLDER[style.weight] : style.weight} ${size}px ${families.map(quoted).join(', ')}`;
}

/** The style's letter spacing as its family takes it (a pixel face draws labels unspaced: family-metrics.ts). */
function letterSpacingOf(style: TextStyle, cardFamily: string): number {
  return (style.letterSpacing ?? 0) * familySpacing(style.family ?? cardFamily).letterSpacing;
}

function emojiWidth(emoji: string, size: number): number | undefined {
  const glyph = emojiGlyph(emoji);
  if (!glyph) return undefined;
  return (glyph.width / glyph.height) * size * EMOJI_HEIGHT + size * EMOJI_GAP * 2;
}

/** What an entry costs besides its strings (UTF-16, two bytes a character): the objects around them. */
const MEASUREMENT_OVERHEAD_BYTES = 160;
const RUN_OVERHEAD_BYTES = 80;

/**
 * The text's runs with their widths: emoji, and text cut where mathematical letters change the
 * emphasis (math-letters.ts), each drawn as its plain letters in its own font. From the measurement
 * cache when this font has measured this text before: Pango's measureText is the costliest part of
 * drawing text, and a card measures the same labels, digits and name many times (and the next card
 * the same labels and digits again). The key is everything the widths depend on: the font (family,
 * size, weight, slant), the letter spacing and the text (the paragraph direction follows from the
 * text). Widths are in 1x units, which Pango gives whatever the context's transform, so 1x and 2x
 * cards share entries.
 */
function measureRuns(context: CanvasRenderingContext2D, text: string, style: TextStyle): readonly MeasuredRun[] {
  const cardFamily = cardFamilyOf(context);
  const font = fontFor(style, cardFamily);
  const letterSpacing = letterSpacingOf(style, cardFamily);
  const key = `${font}\u0000${letterSpacing}\u0000${text}`;
  const cached = textMeasurementCache.get(key);
  if (cached !== undefined) return cached.runs;
  const direction = context.direction;
  context.direction = isRightToLeft(text) ? 'rtl' : 'ltr';
  const runs: MeasuredRun[] = [];
  let bytes = MEASUREMENT_OVERHEAD_BYTES + key.length * 2;
  for (const run of splitRuns(text)) {
    bytes += RUN_OVERHEAD_BYTES + run.text.length * 2;
    const width = run.kind === 'emoji' ? emojiWidth(run.text, style.size) : undefined;
    if (width !== undefined) {
      runs.push({ ...run, width, font });
      continue;
    }
    // Text, or an emoji the color font lacks: Pango draws it with the text fonts.
    for (const piece of styledPieces(run.text)) {
      const pieceFont = fontFor(style, cardFamily, piece.emphasis);
      context.font = pieceFont;
      const graphemes = graphemesOf(piece.text);
      const spacing = letterSpacing * graphemes.length;
      // Letter-spaced text is drawn letter by letter, each advanced by its own width.
      const letters = letterSpacing ? graphemes.map((grapheme) => ({ text: grapheme, advance: context.measureText(grapheme).width + letterSpacing })) : undefined;
      if (letters) bytes += letters.length * RUN_OVERHEAD_BYTES + piece.text.length * 2;
      runs.push({ kind: 'text', text: piece.text, width: context.measureText(piece.text).width + spacing, font: pieceFont, ...(letters ? { letters } : {}) });
    }
  }
  context.direction = direction;
  textMeasurementCache.set(key, { runs, bytes });
  return runs;
}

export function measureText(context: CanvasRenderingContext2D, text: string, style: TextStyle): number {
  return measureRuns(context, text, style).reduce((sum, run) => sum + run.width, 0);
}

/**
 * Draws a color emoji `height` tall with its bottom-left corner at (`left`, `bottom`). node-canvas
 * draws an image's shadow from the image's own pixels at their own size and ignores the transform:
 * a scaled image under `scale: 2` got a dark, misplaced box for a shadow. So the emoji is resampled
 * once to the device pixels it covers and drawn without a transform: its shadow (the text step's)
 * is then the emoji's outline, where the text's shadow would be. Only scale and translation are
 * handled, the only transforms the card uses.
 */
function drawEmoji(context: CanvasRenderingContext2D, emoji: string, left: number, bottom: number, height: number): void {
  const glyph = emojiGlyph(emoji);
  if (!glyph) return;
  const width = (glyph.width / glyph.height) * height;
  const { a: scaleX, d: scaleY, e: offsetX, f: offsetY } = context.getTransform();
  const deviceLeft = Math.round(left * scaleX + offsetX);
  const deviceTop = Math.round((bottom - height) * scaleY + offsetY);
  const deviceRight = Math.round((left + width) * scaleX + offsetX);
  const deviceBottom = Math.round(bottom * scaleY + offsetY);
  const image = emojiGlyphAtSize(emoji, deviceRight - deviceLeft, deviceBottom - deviceTop);
  if (!image) return;
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(image, deviceLeft, deviceTop);
  context.restore();
}

/** The stops spread evenly across the drawn text, from its left edge to its right. */
function textGradient(context: CanvasRenderingContext2D, colors: readonly string[], left: number, width: number): CanvasGradient {
  const gradient = context.createLinearGradient(left, 0, left + Math.max(1, width), 0);
  for (const [index, color] of colors.entries()) gradient.addColorStop(index / (colors.length - 1), color);
  return gradient;
}

/** Draws text with emojis on the alphabetic baseline `y`, aligned to `x`; returns the width drawn. */
export function drawText(context: CanvasRenderingContext2D, text: string, x: number, y: number, style: TextStyle, align: 'left' | 'right' | 'center' = 'left'): number {
  context.save();
  const runs = measureRuns(context, text, style);
  const total = runs.reduce((sum, run) => sum + run.width, 0);
  const rightToLeft = isRightToLeft(text);
  const ordered = rightToLeft ? [...runs].reverse() : runs;
  let cursor = align === 'left' ? x : align === 'right' ? x - total : x - total / 2;
  // node-canvas passes `direction` to Pango as the paragraph direction: without it, an Arabic run
  // is laid out in a left-to-right paragraph (its trailing space lands on the wrong side, and a
  // date made of digits and right-to-left marks comes out scrambled). `textAlign` stays 'left'
  // because every run is placed by its left edge here.
  context.direction = rightToLeft ? 'rtl' : 'ltr';
  context.textDrawingMode = 'glyph';
  context.textBaseline = 'alphabetic';
  context.textAlign = 'left';
  context.fillStyle = style.gradient && style.gradient.length > 1 ? textGradient(context, style.gradient, cursor, total) : style.color;
  // A shadow set by the caller falls on emoji only. node-canvas draws 'glyph'-mode text without
  // one: it shadows the (empty) path before the glyphs, which changes no pixel but still pushes
  // and paints a group the size of the whole clip on every call (1.7-2 ms of a card's 9-13 ms of
  // CPU, measured interleaved in one process). With it off every card is pixel for pixel the same.
  const shadowColor = context.shadowColor;
  for (const run of ordered) {
    context.font = run.font;
    context.shadowColor = run.kind === 'emoji' ? shadowColor : NO_SHADOW;
    if (run.kind === 'emoji') {
      drawEmoji(context, run.text, cursor + style.size * EMOJI_GAP, y + style.size * EMOJI_DESCENT, style.size * EMOJI_HEIGHT);
    } else if (run.letters) {
      let letterX = cursor;
      for (const letter of run.letters) {
        context.fillText(letter.text, letterX, y);
        letterX += letter.advance;
      }
    } else {
      context.fillText(run.text, cursor, y);
    }
    cursor += run.width;
  }
  context.restore();
  return total;
}

export type FittedText = { text: string; style: TextStyle; width: number };

/** How far back from where text must be cut a space may be and still be where it is cut. */
const NEAR_BREAK = 0.4;

/**
 * `end` (a count of graphemes), moved back to a space when one is near: text is cut between words
 * where it can be ("The Extraordinarily…", not "The Extraordinaril…"), inside a word otherwise.
 */
export function wordBreakNear(graphemes: readonly string[], end: number): number {
  if (end >= graphemes.length) return end;
  for (let candidate = end; candidate > end * (1 - NEAR_BREAK); candidate -= 1) if (/\s/u.test(graphemes[candidate] ?? '')) return candidate;
  return end;
}

/**
 * The largest size from `style.size` down to `minSize` at which the text fits `maxWidth`; if even
 * the smallest is too wide, the text is cut at a grapheme boundary and ends with an ellipsis.
 */
export function fitText(context: CanvasRenderingContext2D, text: string, style: TextStyle, maxWidth: number, minSize: number): FittedText {
  const fullWidth = measureText(context, text, style);
  if (fullWidth <= maxWidth) return { text, style, width: fullWidth };
  // Text width grows linearly with font size, so one measurement predicts the fitting size.
  const predicted = Math.floor((style.size * maxWidth) / fullWidth);
  for (let size = Math.max(predicted, minSize); size >= minSize; size -= 1) {
    const sized = { ...style, size };
    const width = measureText(context, text, sized);
    if (width <= maxWidth) return { text, style: sized, width };
    if (size - 1 < minSize) break;
  }
  const smallest = { ...style, size: minSize };
  const graphemes = graphemesOf(text);
  let [low, high] = [0, graphemes.length];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = `${graphemes.slice(0, middle).join('').trimEnd()}…`;
    if (measureText(context, candidate, smallest) <= maxWidth) low = middle;
    else high = middle - 1;
  }
  const cut = `${graphemes.slice(0, wordBreakNear(graphemes, low)).join('').trimEnd()}…`;
  return { text: cut, style: smallest, width: measureText(context, cut, smallest) };
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Graphemes drawn from the color emoji font rather than by Pango, which draws them at the wrong
 * size. Unicode's presentation rule: a full RGI emoji (sequences, and text-default symbols followed
 * by U+FE0F such as `⚙️`), or a lone character whose default presentation is emoji (`🐉`, `✨`).
 * Text-default symbols without U+FE0F (`⚙`, `♫`, `⌘`, `❤`) stay text and come from the symbol fonts.
 */
const EMOJI_GRAPHEME = /^(\p{RGI_Emoji}|\p{Emoji_Presentation})$/v;
/** Letters, and the invisible direction marks (LRM, RLM, ALM) that Intl puts in some dates. */
const FIRST_STRONG = /[\p{L}\u200E\u200F\u061C]/u;
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u061C]/u;

export type TextRun = { kind: 'text' | 'emoji'; text: string };

export function graphemesOf(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/** Splits text into maximal runs of plain text and single emoji graphemes, in logical order. */
export function splitRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const grapheme of graphemesOf(text.normalize('NFC'))) {
    const kind = EMOJI_GRAPHEME.test(grapheme) ? 'emoji' : 'text';
    const last = runs.at(-1);
    if (kind === 'text' && last?.kind === 'text') last.text += grapheme;
    else runs.push({ kind, text: grapheme });
  }
  return runs;
}

/**
 * Paragraph direction from the first strong character, as the Unicode bidi algorithm does (an
 * Arabic date such as "10\u200F/03\u200F/2023" has no letter, only right-to-left marks). Pango
 * orders characters inside each text run in this direction; the order of runs around emojis is
 * ours to reverse.
 */
export function isRightToLeft(text: string): boolean {
  const first = FIRST_STRONG.exec(text)?.[0];
  return first !== undefined && RIGHT_TO_LEFT.test(first);
}
