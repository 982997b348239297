/**
 * Emojibase group numbers and their CLDR / Unicode emoji-test group names. Group 2 (skin tone and
 * hair components) is not offered: those code points are modifiers, not emojis to send.
 */
export const EMOJI_CATEGORIES = {
  0: 'Smileys & Emotion',
  1: 'People & Body',
  3: 'Animals & Nature',
  4: 'Food & Drink',
  5: 'Travel & Places',
  6: 'Activities',
  7: 'Objects',
  8: 'Symbols',
  9: 'Flags',
} as const satisfies Record<number, string>;

export type EmojiCategory = (typeof EMOJI_CATEGORIES)[keyof typeof EMOJI_CATEGORIES];

export const CATEGORY_NAMES = Object.values(EMOJI_CATEGORIES) as EmojiCategory[];

/** Matches a category name case-insensitively, also in the slug form `food-drink`. */
export function findCategory(text: string): EmojiCategory | undefined {
  const wanted = text.trim().toLowerCase();
  return CATEGORY_NAMES.find(
    (name) => name.toLowerCase() === wanted || name.toLowerCase().replace(/ & /g, '-') === wanted,
  );
}
