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

/**
 * One line as large as fits (`fitText`, down to `minSize`); a text still too long then takes two
 * lines at one size, broken between words where one ends near the edge; the second line ends with
 * an ellipsis if the text does not fit even at `twoLineMinSize`. The first line may have less room
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
