import type { EmojiCategory } from './emoji-categories.ts';

/**
 * What kind of thing an emoji shows, from its CLDR subgroup: the first matching subgroup prefix
 * wins, then the category's default. `Symbol` is used exactly for the Symbols category, so
 * `emojiType === "Symbol"` and `isSymbol` always agree.
 */
const SUBGROUP_TYPES: readonly (readonly [prefix: string, type: string])[] = [
  ['face-', 'Face'],
  ['cat-face', 'Face'],
  ['monkey-face', 'Face'],
  ['heart', 'Heart'],
  ['emotion', 'Emotion'],
  ['hand', 'Body Part'],
  ['body-parts', 'Body Part'],
  ['animal-', 'Animal'],
  ['plant-', 'Plant'],
  ['drink', 'Drink'],
  ['dishware', 'Object'],
  ['place-', 'Place'],
  ['hotel', 'Place'],
  ['transport-ground', 'Transport'],
  ['transport-water', 'Transport'],
  ['transport-air', 'Transport'],
  ['time', 'Time'],
  ['sky-weather', 'Weather'],
  ['event', 'Event'],
  ['award-medal', 'Award'],
  ['sport', 'Sport'],
  ['game', 'Game'],
  ['arts-crafts', 'Art'],
];

const CATEGORY_TYPES: Record<EmojiCategory, string> = {
  'Smileys & Emotion': 'Face',
  'People & Body': 'Person',
  'Animals & Nature': 'Animal',
  'Food & Drink': 'Food',
  'Travel & Places': 'Place',
  Activities: 'Activity',
  Objects: 'Object',
  Symbols: 'Symbol',
  Flags: 'Flag',
};

export const EMOJI_TYPES = [...new Set([...SUBGROUP_TYPES.map(([, type]) => type), ...Object.values(CATEGORY_TYPES)])];

export function emojiType(category: EmojiCategory, subgroup: string): string {
  if (category === 'Symbols' || category === 'Flags' || category === 'Objects') return CATEGORY_TYPES[category];
  return SUBGROUP_TYPES.find(([prefix]) => subgroup.startsWith(prefix))?.[1] ?? CATEGORY_TYPES[category];
}
