const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** User-perceived characters: an emoji ZWJ sequence or a letter with its accents stays whole. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text.normalize('NFC')), (part) => part.segment);
}
