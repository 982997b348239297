/**
 * Caller- and profile-supplied text (name, tag, subtitle, custom date) made safe to lay out on one
 * line before the card measures it. Every line of the card is a single line: a line break would be
 * drawn by Pango as a second line on top of the next one, a bidi override would let "@\u202Enimda"
 * pass for "@admin", and a pile of combining marks (Zalgo) would grow far above and below the line.
 */

/**
 * Line and paragraph separators and tabs: each separates words, so each becomes one space. A run of
 * them, with the spaces around it, is one gap, so "Ada \r\n Lovelace" reads "Ada Lovelace".
 */
const BREAK_RUN = / *[\t\n\v\f\r\u0085\u2028\u2029][\t\n\v\f\r\u0085\u2028\u2029 ]*/gu;

/** The other C0 and C1 controls (NUL, ESC, DEL...): they draw nothing meaningful, only tofu boxes. */
const OTHER_CONTROLS = /(?![\t\n\v\f\r\u0085])\p{Cc}/gu;

/**
 * Bidi embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI): they
 * reorder what is drawn, so a name could show letters in an order other than the one it has. The
 * direction marks LRM, RLM and ALM stay: they only nudge neutral characters, and Intl writes them
 * into dates (an Arabic `customDate` copied from a formatter keeps its order). Read from Unicode's
 * own Bidi_Control property, so a control added to it is dropped too.
 */
const BIDI_CONTROLS = /[\p{Bidi_Control}--[\u061C\u200E\u200F]]/gv;

/**
 * Combining marks kept in a row after one base character. 3 is the most real text needs, checked
 * on NFC text (the form this cleaner produces, counting Mn and Me marks):
 * - Vietnamese: 0, every letter has a precomposed form ("ệ" is one code point after NFC).
 * - Thai: 2, a vowel above or below plus a tone mark ("กิ่ง", "สุ่ม").
 * - Arabic: 2, shadda plus a vowel ("مُحَمَّد").
 * - Devanagari: 3, as NFC splits क़ into क + nukta: nukta, vowel sign, anusvara ("फ़ें").
 * - Hebrew with niqqud: 3, shin with dagesh, shin dot and a vowel ("שָּׁ").
 * - Tibetan: 3, two stacked consonants and a vowel ("སྒྲུ"); Myanmar: 3 ("မှုံ").
 * A bound of 2 would cut those; 3 keeps them while Zalgo (tens of marks) loses all but three. Only
 * Biblical cantillation (a fourth, accent mark) and Sanskrit Tibetan stacks go past it, and they
 * stay readable without their last mark.
 */
const MAX_MARKS_IN_A_ROW = 3;

const COMBINING_MARK = /^[\p{Mn}\p{Me}]$/u;

/**
 * Characters with no glyph of their own. Inside a run of marks they neither count nor end the run
 * (so ZWJ or a variation selector between marks cannot reset the count), and they are always kept:
 * ZWJ and ZWNJ shape emoji sequences and Indic conjuncts, variation selectors pick emoji or text
 * presentation.
 */
const GLYPHLESS = /^\p{Default_Ignorable_Code_Point}$/u;

/**
 * Characters that draw nothing: Unicode's default-ignorable characters (ZWSP, ZWJ, word joiner,
 * soft hyphen, variation selectors, tags, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0)
 * and bidi controls, and blank characters that are not default-ignorable but are drawn as nothing
 * and used for "empty" names: U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD,
 * and the interlinear annotation controls U+FFF9 to U+FFFB. The Hangul fillers are listed again so
 * the set does not depend on the Unicode version of the runtime's data. A character class body,
 * shared by {@link INVISIBLE} and {@link UNSEEN_OUTSIDE_EMOJI}.
 */
const UNSEEN = String.raw`\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\u115F\u1160\u3164\uFFA0\u2800\u{1D159}\uFFF9-\uFFFB`;

/** Characters that leave nothing visible: whitespace and the unseen ones. */
const INVISIBLE = new RegExp(`[\\p{White_Space}${UNSEEN}]`, 'gu');

/**
 * An RGI emoji sequence (captured, kept whole), else one unseen character. Inside an emoji the
 * joiners, variation selectors and tag characters are what make it one emoji: a screen reader says
 * "family: woman, woman, girl" or "flag: Scotland" for the sequence, "woman woman girl" or "black
 * flag" once they are gone. The `v` flag matches the longest sequence first.
 */
const UNSEEN_OUTSIDE_EMOJI = new RegExp(`(\\p{RGI_Emoji})|[${UNSEEN}]`, 'gv');

/** Drops the combining marks past `MAX_MARKS_IN_A_ROW` in any run; a run also counts at the very start. */
function capCombiningMarks(text: string): string {
  let kept = '';
  let marksInRow = 0;
  for (const character of text) {
    if (GLYPHLESS.test(character)) {
      kept += character;
      continue;
    }
    if (COMBINING_MARK.test(character)) {
      marksInRow += 1;
      if (marksInRow > MAX_MARKS_IN_A_ROW) continue;
    } else {
      marksInRow = 0;
    }
    kept += character;
  }
  return kept;
}

/**
 * The text as the card draws it: lone surrogates made U+FFFD, controls and bidi controls removed,
 * line breaks and tabs made one space, NFC, at most three combining marks in a row, trimmed.
 * Visible text is otherwise untouched.
 */
export function cleanText(text: string): string {
  // A lone surrogate (JSON may carry one as "\ud800") is no character: it cannot be drawn, shaped,
  // UTF-8 encoded or percent-encoded (encodeURIComponent throws), so it becomes the replacement
  // character before anything else sees it, as a UTF-8 decoder would make it.
  const withoutControls = text.toWellFormed().replace(OTHER_CONTROLS, '').replace(BIDI_CONTROLS, '');
  // NFC after the removals, so a mark separated from its letter by a removed control composes.
  const composed = withoutControls.normalize('NFC').replace(BREAK_RUN, ' ');
  return capCombiningMarks(composed).trim();
}

/** Whether nothing of the text would be seen: only whitespace, invisible or blank characters. */
export function isInvisible(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}

/**
 * The cleaned text, or undefined when nothing visible is left: an empty or all-invisible field is
 * treated as not given, so the card falls back to its default instead of drawing a blank line.
 */
export function visibleText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const cleaned = cleanText(text);
  return isInvisible(cleaned) ? undefined : cleaned;
}

/**
 * Cleaned text as alt text says it: without the characters the card draws as nothing (every bidi
 * control, direction marks included, every default-ignorable character and the blanks), which a
 * screen reader would otherwise announce or let reorder the sentence, except inside RGI emoji
 * sequences, whose joiners, variation selectors and tags give the emoji its name. Give it text
 * already through {@link cleanText} (one rule set: the card's, then this).
 */
export function spokenText(text: string): string {
  return text.replace(UNSEEN_OUTSIDE_EMOJI, (_unseen, emoji: string | undefined) => emoji ?? '');
}
