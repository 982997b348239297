import { DEFAULT_CARD_LABELS, type CardLabel, type CardOptions } from '@utility-api/render-jobs';
import { visibleText } from './clean-text.ts';

/** Each of the card's fixed words (render-jobs' DEFAULT_CARD_LABELS), as the caller gave it or the default. */
export type CardWords = Record<CardLabel, string>;

/**
 * Scripts written with capitals and unjoined letters, which take the capitals (and letter spacing)
 * of the card's labels and welcome headline. Joined (Arabic), complex (Devanagari, Thai) and CJK
 * scripts keep their own shapes: drawn letter by letter they would fall apart.
 */
export const CASED_SCRIPTS = /^[\P{L}\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}]*$/u;

const GREEK = /\p{Script=Greek}/u;

/**
 * A word in capitals when its script has them ("Niveau" is "NIVEAU"), else as written ("レベル").
 * Greek capitals drop their accents, as Greek typesetting does ("Θέση" is "ΘΕΣΗ", not "ΘΈΣΗ"):
 * ICU's Greek upper-casing does that and changes nothing else.
 */
export function inCapitals(word: string): string {
  if (!CASED_SCRIPTS.test(word)) return word;
  return GREEK.test(word) ? word.toLocaleUpperCase('el') : word.toUpperCase();
}

/**
 * The `labels` option with every word cleaned as names are (clean-text.ts); a word not given, or
 * with nothing visible left, is the default.
 */
export function cardWords(labels: CardOptions['labels']): CardWords {
  const word = (label: CardLabel) => visibleText(labels?.[label]) ?? DEFAULT_CARD_LABELS[label];
  return { level: word('level'), rank: word('rank'), xp: word('xp'), bot: word('bot'), welcome: word('welcome'), joined: word('joined') };
}
