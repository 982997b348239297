/**
 * Text that other people chose (an account's name from Discord, a key's name) on its way to a
 * terminal or into the store. A terminal runs what it is sent: ESC and CSI sequences clear the
 * screen, set the window title, move the cursor or rewrite earlier lines; bidi overrides reorder
 * what a line shows. So a CLI escapes them into visible text, and a stored display name never
 * holds them.
 */

/**
 * What a terminal could act on: C0 and C1 controls (ESC, CSI U+009B, NUL, BEL, DEL...), the line and
 * paragraph separators, bidi embeddings, overrides and isolates (Unicode's Bidi_Control property,
 * direction marks included: a CLI line has no reason to hold one), and lone surrogates.
 */
const TERMINAL_UNSAFE = /[\p{Cc}\u2028\u2029\p{Bidi_Control}]|\p{Surrogate}/gu;

/**
 * One character as an escape a person can read: `\u001B`, `\u202E`, `\uD800`. The JSON form, so
 * a CLI's `--json` output stays JSON that decodes to the same text (these characters only occur
 * inside its strings: JSON.stringify escapes C0 itself, but not C1, separators or bidi controls).
 */
function visibleEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` safe to print on a terminal: every control character, separator, bidi control and lone
 * surrogate written as a visible escape (`\u001B]0;title\u0007` prints as those characters, not as a
 * new window title). With `keepLineBreaks`, `\n` stays a line break: for a program's own
 * multi-line messages, whose user-supplied parts are escaped field by field.
 */
export function terminalSafe(text: string, { keepLineBreaks = false }: { keepLineBreaks?: boolean } = {}): string {
  return text.replace(TERMINAL_UNSAFE, (character) => (keepLineBreaks && character === '\n' ? character : visibleEscape(character)));
}

/**
 * Bidi embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI): they
 * reorder the name around them wherever it is shown. The direction marks (LRM, RLM, ALM) stay, as
 * on the card (packages/card clean-text): they only nudge neutral characters.
 */
const BIDI_OVERRIDES = /[\p{Bidi_Control}--[\u061C\u200E\u200F]]/gv;
/** C0 and C1 controls (NUL, ESC, CSI, DEL, line breaks and tabs too: a name is one line). */
const CONTROLS = /\p{Cc}/gu;
const LONE_SURROGATE = /\p{Surrogate}/gu;

/**
 * A display name as it is stored: C0 and C1 controls, bidi overrides and lone surrogates dropped,
 * the rest trimmed. Every place that shows it (the account pages, the CLI, a log) then gets text
 * that means what it shows; an empty result is the caller's to replace.
 */
export function storedDisplayName(name: string): string {
  return name.replace(LONE_SURROGATE, '').replace(CONTROLS, '').replace(BIDI_OVERRIDES, '').trim();
}
