import type { CanvasRenderingContext2D } from 'canvas';
import { fitText, graphemesOf, measureText, wordBreakNear, type FittedText, type TextStyle } from './rich-text.ts';

export interface LineSizes {
  /** Sizes for one line: from `style.size` down to this. */
  minSize: number;
  /** Sizes for two lines, used when one line at `minSize` is too long. */
  twoLineSize: number;
  twoLineMinSize: number;
}

const ELLIPSIS = '…';

/**
 * The longest start of `graphemes` that fits `maxWidth` (with `suffix` after it), ending at a
 * space when one is near the end, so a line breaks between words rather than inside one.
 */
function fittingStart(context: CanvasRenderingContext2D, graphemes: readonly string[], style: TextStyle, maxWidth: number, suffix = ''): number {
  let [low, high] = [0, graphemes.length];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measureText(context, `${graphemes.slice(0, middle).join('').trimEnd()}${suffix}`, style) <= maxWidth) low = middle;
    else high = middle - 1;
  }
  return wordBreakNear(graphemes, low);
}

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Where a line may break between words, as grapheme indices: before each word or space
 * Intl.Segmenter finds by the script's rules (words of Chinese, Japanese and Thai too, which have no
 * spaces), never before punctuation nor inside a grapheme.
 */
function wordBreaks(graphemes: readonly string[]): number[] {
  const byOffset = new Map<number, number>();
  let offset = 0;
  for (const [index, grapheme] of graphemes.entries()) {
    byOffset.set(offset, index);
    offset += grapheme.length;
  }
  const breaks: number[] = [];
  for (const segment of wordSegmenter.segment(graphemes.join(''))) {
    const index = byOffset.get(segment.index);
    // Before a word or a space; never before punctuation ("Montgomery-" / "Smythe", not "Montgomery" / "-Smythe").
    if (index !== undefined && index > 0 && (segment.isWordLike === true || /^\s/u.test(segment.segment))) breaks.push(index);
  }
  return breaks;
}

/**
 * Two lines at `style`'s size broken between words: the last word break that leaves the first line
 * within `firstWidth`, if the rest then fits `restWidth` whole. Undefined when no break between
 * words gives two lines that fit at this size.
 */
function linesBetweenWords(context: CanvasRenderingContext2D, graphemes: readonly string[], breaks: readonly number[], style: TextStyle, widths: { first: number; rest: number }): FittedText[] | undefined {
  for (let position = breaks.length - 1; position >= 0; position -= 1) {
    const split = breaks[position] ?? 0;
    const first = graphemes.slice(0, split).join('').trimEnd();
    const firstWidth = measureText(context, first, style);
    if (first === '' || firstWidth > widths.first) continue;
    const rest = graphemes.slice(split).join('').trimStart();
    const restWidth = measureText(context, rest, style);
    // The latest break that fits the first line decides: an earlier one only makes the rest longer.
    if (restWidth > widths.rest) return undefined;
    return [
      { text: first, style, width: firstWidth },
      { text: rest, style, width: restWidth },
    ];
  }
  return undefined;
}

/**
 * One line as large as fits (`fitText`, down to `minSize`); a text still too long then takes two
 * lines at one size, broken between words at the largest size where that fits (by the script's
 * rules: `wordBreaks`), else inside a word near the edge; the second line ends with an ellipsis if
 * the text does not fit even at `twoLineMinSize`. The first line may have less room
 * than the second (`firstLineWidth`: it shares its height with the badge row).
 */
export function fitLines(context: CanvasRenderingContext2D, text: string, style: TextStyle, widths: { first: number; rest: number }, sizes: LineSizes): FittedText[] {
  const { first: firstWidth, rest: maxWidth } = widths;
  const fullWidth = measureText(context, text, style);
  // Width grows with size, so one measurement says whether one line can hold the text at minSize.
  if (fullWidth * (sizes.minSize / style.size) <= firstWidth) return [fitText(context, text, style, firstWidth, sizes.minSize)];
  const graphemes = graphemesOf(text);
  // Start at the size where the whole text is about two lines' worth (a break between words
  // wastes some of the first line), instead of measuring every size above it.
  const predicted = Math.floor((style.size * (firstWidth + maxWidth) * 0.9) / fullWidth);
  const start = Math.min(sizes.twoLineSize, Math.max(predicted, sizes.twoLineMinSize));
  // Between words first, at any two-line size ("Bartholomew / Featherstonehaugh", not
  // "Bartholomew Featherst / onehaugh"); only a text no size breaks between words is cut inside one.
  const breaks = wordBreaks(graphemes);
  for (let size = start; size >= sizes.twoLineMinSize && breaks.length > 0; size -= 1) {
    const lines = linesBetweenWords(context, graphemes, breaks, { ...style, size }, widths);
    if (lines) return lines;
  }
  for (let size = Math.min(sizes.twoLineSize, Math.max(predicted, sizes.twoLineMinSize)); size >= sizes.twoLineMinSize; size -= 1) {
    const sized = { ...style, size };
    const split = fittingStart(context, graphemes, sized, firstWidth);
    if (split === 0) break;
    const first = graphemes.slice(0, split).join('').trimEnd();
    const rest = graphemes.slice(split).join('').trimStart();
    const restWidth = measureText(context, rest, sized);
    if (restWidth <= maxWidth || size === sizes.twoLineMinSize) {
      const restGraphemes = graphemesOf(rest);
      const second = restWidth <= maxWidth ? rest : `${restGraphemes.slice(0, fittingStart(context, restGraphemes, sized, maxWidth, ELLIPSIS)).join('').trimEnd()}${ELLIPSIS}`;
      return [
        { text: first, style: sized, width: measureText(context, first, sized) },
        { text: second, style: sized, width: measureText(context, second, sized) },
      ];
    }
  }
  return [fitText(context, text, style, firstWidth, sizes.minSize)];
}
