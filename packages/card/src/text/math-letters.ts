/**
 * Mathematical alphanumerics (U+1D400-1D7FF, and the letterlike ones in U+2100-214F that fill its
 * holes, such as ℎ or ℬ) are how chat names get "fonts": 𝓯𝓪𝓷𝓬𝔂, 𝐛𝐨𝐥𝐝, 𝘪𝘵𝘢𝘭𝘪𝘤. Drawn as they are,
 * they come from a maths font, in another design, size and weight than the rest of the card. The
 * card draws them as the plain letters they stand for, in the card's family, keeping what the
 * caller meant by them: bold as a heavier weight, italic as italic. No maintained npm package maps
 * them with their style (the ones found strip the style, as NFKC does), so this reads the style
 * from Unicode's fixed layout of the block and takes the letter itself from NFKC.
 */

/** What a mathematical letter asks for beyond its plain letter. Script letters lean, so they are drawn italic. */
export interface LetterEmphasis {
  bold: boolean;
  italic: boolean;
  /** Monospace letters: drawn in the card's monospace family. */
  monospace: boolean;
}

export const PLAIN: LetterEmphasis = { bold: false, italic: false, monospace: false };

const style = (bold: boolean, italic: boolean, monospace = false): LetterEmphasis => ({ bold, italic, monospace });

/**
 * The block's alphabets, in Unicode's order: each a run of 52 Latin letters (A-Z, a-z) from its
 * start. Fraktur and double-struck letters have no weight or slant to keep; they become plain.
 */
const LATIN_ALPHABETS: readonly [start: number, emphasis: LetterEmphasis][] = [
  [0x1d400, style(true, false)], // bold
  [0x1d434, style(false, true)], // italic
  [0x1d468, style(true, true)], // bold italic
  [0x1d49c, style(false, true)], // script
  [0x1d4d0, style(true, true)], // bold script
  [0x1d504, PLAIN], // fraktur
  [0x1d538, PLAIN], // double-struck
  [0x1d56c, style(true, false)], // bold fraktur
  [0x1d5a0, PLAIN], // sans-serif
  [0x1d5d4, style(true, false)], // sans-serif bold
  [0x1d608, style(false, true)], // sans-serif italic
  [0x1d63c, style(true, true)], // sans-serif bold italic
  [0x1d670, style(false, false, true)], // monospace
];
const LATIN_ALPHABET_LENGTH = 52;

/** Greek alphabets: 58 letters and symbols each (Α-Ω, ∇, α-ω, ∂ and the variant forms). */
const GREEK_ALPHABETS: readonly [start: number, emphasis: LetterEmphasis][] = [
  [0x1d6a8, style(true, false)],
  [0x1d6e2, style(false, true)],
  [0x1d71c, style(true, true)],
  [0x1d756, style(true, false)], // sans-serif bold
  [0x1d790, style(true, true)], // sans-serif bold italic
];
const GREEK_ALPHABET_LENGTH = 58;

/** Digits: 10 each, from U+1D7CE. */
const DIGIT_SETS: readonly [start: number, emphasis: LetterEmphasis][] = [
  [0x1d7ce, style(true, false)],
  [0x1d7d8, PLAIN], // double-struck
  [0x1d7e2, PLAIN], // sans-serif
  [0x1d7ec, style(true, false)], // sans-serif bold
  [0x1d7f6, style(false, false, true)], // monospace
];

/** The dotless italic ı and ȷ, and the bold digamma pair, which sit between the runs. */
const LONE_LETTERS = new Map<number, LetterEmphasis>([
  [0x1d6a4, style(false, true)],
  [0x1d6a5, style(false, true)],
  [0x1d7ca, style(true, false)],
  [0x1d7cb, style(true, false)],
]);

/**
 * Letterlike symbols that stand for the block's missing letters (ℎ for italic h, ℬ for script B,
 * ℭ for fraktur C, ℂ for double-struck C...) plus the double-struck italic ⅅ ⅆ ⅇ ⅈ ⅉ and Greek ℼ ℽ ℾ ℿ
 * ⅀. Other letterlike symbols (℃, №, ™, ℅) are not letters of a styled alphabet and stay as they are.
 */
const LETTERLIKE = new Map<number, LetterEmphasis>([
  [0x210e, style(false, true)], // ℎ italic h
  ...[0x212c, 0x2130, 0x2131, 0x210b, 0x2110, 0x2112, 0x2133, 0x211b, 0x212f, 0x210a, 0x2134].map((code): [number, LetterEmphasis] => [code, style(false, true)]), // script
  ...[0x212d, 0x210c, 0x2111, 0x211c, 0x2128, 0x2102, 0x210d, 0x2115, 0x2119, 0x211a, 0x211d, 0x2124, 0x213c, 0x213d, 0x213e, 0x213f, 0x2140].map(
    (code): [number, LetterEmphasis] => [code, PLAIN],
  ), // fraktur, double-struck
  ...[0x2145, 0x2146, 0x2147, 0x2148, 0x2149].map((code): [number, LetterEmphasis] => [code, style(false, true)]), // double-struck italic
]);

function inRuns(code: number, runs: readonly [number, LetterEmphasis][], length: number): LetterEmphasis | undefined {
  for (const [start, emphasis] of runs) if (code >= start && code < start + length) return emphasis;
  return undefined;
}

/** The emphasis of a mathematical or letterlike letter, or undefined for any other character. */
export function mathLetterEmphasis(code: number): LetterEmphasis | undefined {
  if (code >= 0x2100 && code <= 0x214f) return LETTERLIKE.get(code);
  if (code < 0x1d400 || code > 0x1d7ff) return undefined;
  return inRuns(code, LATIN_ALPHABETS, LATIN_ALPHABET_LENGTH) ?? inRuns(code, GREEK_ALPHABETS, GREEK_ALPHABET_LENGTH) ?? inRuns(code, DIGIT_SETS, 10) ?? LONE_LETTERS.get(code);
}

/** A stretch of text with one emphasis, its mathematical letters already made plain. */
export interface StyledPiece {
  text: string;
  emphasis: LetterEmphasis;
}

const sameEmphasis = (a: LetterEmphasis, b: LetterEmphasis) => a.bold === b.bold && a.italic === b.italic && a.monospace === b.monospace;

/**
 * The text cut where the emphasis changes, each mathematical letter replaced by its plain letter
 * (NFKC of that one character: 𝓯 is f, ℬ is B, 𝛀 is Ω). A combining mark after a mathematical letter
 * stays with it (NFC then composes 𝐞́ into é). Text without mathematical letters is one plain piece.
 */
export function styledPieces(text: string): StyledPiece[] {
  const pieces: StyledPiece[] = [];
  let current: LetterEmphasis = PLAIN;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const emphasis = mathLetterEmphasis(code);
    // Marks and joiners belong to the letter before them: they keep its emphasis.
    const next = emphasis ?? (/^[\p{M}\u200D]$/u.test(character) ? current : PLAIN);
    const plain = emphasis === undefined ? character : character.normalize('NFKC');
    const last = pieces.at(-1);
    if (last && sameEmphasis(last.emphasis, next)) last.text += plain;
    else pieces.push({ text: plain, emphasis: next });
    current = next;
  }
  return pieces.map((piece) => ({ ...piece, text: piece.text.normalize('NFC') }));
}

/** The text with every mathematical letter made plain: what alt text says (a screen reader spells 𝓯 as "mathematical bold script small f"). */
export function plainLetters(text: string): string {
  return styledPieces(text)
    .map((piece) => piece.text)
    .join('');
}
