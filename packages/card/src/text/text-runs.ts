const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Graphemes drawn from the color emoji font rather than by Pango, which draws them at the wrong size. */
const EMOJI_GRAPHEME = /^(\p{RGI_Emoji}|\p{Extended_Pictographic}\uFE0F?)$/v;
/** Letters, and the invisible direction marks (LRM, RLM, ALM) that Intl puts in some dates. */
const FIRST_STRONG = /[\p{L}\u200E\u200F\u061C]/u;
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u061C]/u;

export interface TextRun {
  kind: 'text' | 'emoji';
  text: string;
}

export function graphemesOf(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

export function isEmojiGrapheme(grapheme: string): boolean {
  return EMOJI_GRAPHEME.test(grapheme);
}

/** Splits text into maximal runs of plain text and single emoji graphemes, in logical order. */
export function splitRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const grapheme of graphemesOf(text.normalize('NFC'))) {
    const kind = isEmojiGrapheme(grapheme) ? 'emoji' : 'text';
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
