import { graphemes } from './graphemes.ts';

/**
 * A guess at the part of speech from English suffixes. It is a heuristic, not a dictionary:
 * "hundred" is called a Verb. Words with characters other than letters, `'` and `-` are `Other`.
 */
export type WordType = 'Noun' | 'Verb' | 'Adjective' | 'Adverb' | 'Other';

const SUFFIX_RULES: readonly { suffixes: readonly string[]; minLength: number; type: WordType }[] = [
  { suffixes: ['ly'], minLength: 5, type: 'Adverb' },
  { suffixes: ['ing', 'ize', 'ise', 'ify', 'ed'], minLength: 5, type: 'Verb' },
  { suffixes: ['ous', 'ful', 'ive', 'able', 'ible', 'less', 'ish', 'ary'], minLength: 5, type: 'Adjective' },
];

export function guessWordType(word: string): WordType {
  const normalized = word.normalize('NFC');
  if (!/^[\p{L}\p{M}'-]+$/u.test(normalized)) return 'Other';
  const lower = normalized.toLowerCase();
  // Length in characters as the response counts them, not UTF-16 units: `𐐷𐐷ed` has 4.
  const length = graphemes(normalized).length;
  for (const rule of SUFFIX_RULES) {
    if (length >= rule.minLength && rule.suffixes.some((suffix) => lower.endsWith(suffix))) return rule.type;
  }
  return 'Noun';
}
