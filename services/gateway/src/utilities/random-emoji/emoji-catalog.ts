import emojibaseData from 'emojibase-data/en/data.json' with { type: 'json' };
import emojibaseGroups from 'emojibase-data/meta/groups.json' with { type: 'json' };

/**
 * Emojibase group numbers and their CLDR / Unicode emoji-test group names. Group 2 (skin tone and
 * hair components) is not offered: those code points are modifiers, not emojis to send.
 */
const EMOJI_CATEGORIES = {
  0: 'Smileys & Emotion', 1: 'People & Body', 3: 'Animals & Nature', 4: 'Food & Drink', 5: 'Travel & Places',
  6: 'Activities', 7: 'Objects', 8: 'Symbols', 9: 'Flags',
} as const satisfies Record<number, string>;

export type EmojiCategory = (typeof EMOJI_CATEGORIES)[keyof typeof EMOJI_CATEGORIES];

export const CATEGORY_NAMES = Object.values(EMOJI_CATEGORIES) as EmojiCategory[];

/** Matches a category name case-insensitively, also in the slug form `food-drink`. */
export function findCategory(text: string): EmojiCategory | undefined {
  const wanted = text.trim().toLowerCase();
  return CATEGORY_NAMES.find((name) => name.toLowerCase() === wanted || name.toLowerCase().replace(/ & /g, '-') === wanted);
}

/**
 * What kind of thing an emoji shows, from its CLDR subgroup: the first matching subgroup prefix
 * wins, then the category's default. `Symbol` is used exactly for the Symbols category, so
 * `emojiType === "Symbol"` and `isSymbol` always agree.
 */
const SUBGROUP_TYPES: readonly (readonly [prefix: string, type: string])[] = [
  ['face-', 'Face'], ['cat-face', 'Face'], ['monkey-face', 'Face'], ['heart', 'Heart'], ['emotion', 'Emotion'],
  ['hand', 'Body Part'], ['body-parts', 'Body Part'], ['animal-', 'Animal'], ['plant-', 'Plant'], ['drink', 'Drink'],
  ['dishware', 'Object'], ['place-', 'Place'], ['hotel', 'Place'], ['transport-ground', 'Transport'],
  ['transport-water', 'Transport'], ['transport-air', 'Transport'], ['time', 'Time'], ['sky-weather', 'Weather'],
  ['event', 'Event'], ['award-medal', 'Award'], ['sport', 'Sport'], ['game', 'Game'], ['arts-crafts', 'Art'],
];

/** Each category's type, mood and color, for emojis that nothing more specific describes. */
const CATEGORY_DEFAULTS: Record<EmojiCategory, { type: string; mood: string; color: string }> = {
  'Smileys & Emotion': { type: 'Face', mood: 'Expressive', color: 'Yellow' },
  'People & Body': { type: 'Person', mood: 'Friendly', color: 'Yellow' },
  'Animals & Nature': { type: 'Animal', mood: 'Calm', color: 'Brown' },
  'Food & Drink': { type: 'Food', mood: 'Hungry', color: 'Brown' },
  'Travel & Places': { type: 'Place', mood: 'Adventurous', color: 'Gray' },
  Activities: { type: 'Activity', mood: 'Excited', color: 'Multicolor' },
  Objects: { type: 'Object', mood: 'Curious', color: 'Gray' },
  Symbols: { type: 'Symbol', mood: 'Neutral', color: 'Blue' },
  Flags: { type: 'Flag', mood: 'Proud', color: 'Multicolor' },
};
const CATEGORY_DEFAULT_LIST = Object.values(CATEGORY_DEFAULTS);

export const EMOJI_TYPES = [...new Set([...SUBGROUP_TYPES.map(([, type]) => type), ...CATEGORY_DEFAULT_LIST.map(({ type }) => type)])];

function emojiType(category: EmojiCategory, subgroup: string): string {
  const byCategory = CATEGORY_DEFAULTS[category].type;
  if (category === 'Symbols' || category === 'Flags' || category === 'Objects') return byCategory;
  return SUBGROUP_TYPES.find(([prefix]) => subgroup.startsWith(prefix))?.[1] ?? byCategory;
}

/**
 * Mood and color words. Rule, for both: look at the words of the emoji's CLDR name, then its
 * Emojibase keywords, in order; the first word found in the table decides. Without a match, the
 * category's default applies (faces are yellow, food makes you hungry).
 */
const MOOD_WORDS: Readonly<Record<string, string>> = wordTable({
  Happy: ['happy', 'smile', 'smiling', 'grin', 'grinning', 'joy', 'laugh', 'laughing', 'cheerful', 'glad', 'beaming', 'good'],
  Loving: ['love', 'heart', 'kiss', 'kissing', 'romance', 'affection', 'adore', 'couple', 'hug'],
  Sad: ['sad', 'cry', 'crying', 'tear', 'sob', 'disappointed', 'pensive', 'sorrow', 'broken', 'lonely'],
  Angry: ['angry', 'mad', 'rage', 'pout', 'pouting', 'furious', 'anger', 'grumpy', 'swearing'],
  Scared: ['fear', 'fearful', 'scared', 'scream', 'horror', 'anxious', 'terror', 'ghost', 'skull'],
  Surprised: ['surprise', 'surprised', 'shock', 'shocked', 'astonished', 'wow', 'amazed'],
  Silly: ['silly', 'tongue', 'goofy', 'zany', 'crazy', 'clown', 'wacky'],
  Sleepy: ['sleep', 'sleeping', 'sleepy', 'tired', 'yawn', 'zzz', 'bed', 'night'],
  Sick: ['sick', 'ill', 'nausea', 'nauseated', 'vomit', 'vomiting', 'fever', 'injury', 'sneeze', 'mask'],
  Cool: ['cool', 'sunglasses', 'sunglass'],
  Thoughtful: ['think', 'thinking', 'hmm', 'wonder', 'book', 'science'],
  Hungry: ['food', 'hungry', 'eat', 'eating', 'delicious', 'yum', 'meal', 'dinner', 'lunch', 'breakfast'],
  Thirsty: ['drink', 'beverage', 'thirsty', 'cup', 'glass'],
  Festive: ['party', 'celebration', 'celebrate', 'holiday', 'christmas', 'birthday', 'festival', 'gift', 'congratulations'],
  Playful: ['game', 'play', 'toy', 'fun', 'puppy', 'kitten'],
  Energetic: ['sport', 'ball', 'run', 'running', 'dance', 'dancing', 'fitness', 'gym', 'muscle'],
  Adventurous: ['travel', 'vacation', 'mountain', 'map', 'adventure', 'journey', 'rocket', 'camping'],
  Calm: ['calm', 'relieved', 'peace', 'zen', 'relax', 'nature', 'flower', 'leaf'],
  Proud: ['proud', 'trophy', 'medal', 'winner', 'victory', 'flag', 'crown'],
});

const COLOR_WORDS: Readonly<Record<string, string>> = wordTable({
  Red: ['red', 'heart', 'fire', 'apple', 'cherry', 'cherries', 'strawberry', 'tomato', 'rose', 'blood', 'lipstick', 'chili', 'crab', 'lobster'],
  Orange: ['orange', 'tangerine', 'carrot', 'pumpkin', 'fox', 'tiger', 'basketball', 'peach'],
  Yellow: ['yellow', 'gold', 'golden', 'sun', 'star', 'cheese', 'banana', 'lemon', 'corn', 'chick', 'lightning', 'bee', 'moon', 'face', 'smile'],
  Green: ['green', 'leaf', 'leaves', 'plant', 'tree', 'herb', 'cactus', 'clover', 'frog', 'lizard', 'turtle', 'cucumber', 'broccoli', 'avocado', 'lime'],
  Blue: ['blue', 'water', 'ocean', 'wave', 'sea', 'whale', 'dolphin', 'fish', 'droplet', 'ice', 'jeans'],
  Purple: ['purple', 'grape', 'grapes', 'eggplant', 'violet', 'unicorn'],
  Brown: ['brown', 'chocolate', 'coffee', 'bread', 'wood', 'bear', 'dog', 'horse', 'cookie', 'potato', 'nut', 'chestnut'],
  Black: ['black', 'spade', 'bomb', 'bat', 'gorilla', 'crow'],
  White: ['white', 'snow', 'snowman', 'cloud', 'ghost', 'milk', 'rice', 'egg', 'sheep', 'paper'],
  Pink: ['pink', 'pig', 'flower', 'blossom', 'cherry_blossom', 'flamingo', 'ribbon', 'shrimp'],
  Gray: ['gray', 'grey', 'silver', 'rock', 'robot', 'wolf', 'elephant', 'koala', 'mouse', 'rat', 'gear', 'wrench'],
  Multicolor: ['rainbow', 'multicolor', 'confetti', 'palette'],
});

export const EMOJI_MOODS = [...new Set([...Object.values(MOOD_WORDS), ...CATEGORY_DEFAULT_LIST.map(({ mood }) => mood)])];
export const EMOJI_COLORS = [...new Set([...Object.values(COLOR_WORDS), ...CATEGORY_DEFAULT_LIST.map(({ color }) => color)])];

function wordTable(groups: Record<string, readonly string[]>): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [label, words] of Object.entries(groups)) for (const word of words) table[word] ??= label;
  return table;
}

function firstMatch(words: readonly string[], table: Readonly<Record<string, string>>): string | undefined {
  for (const word of words) {
    const hit = table[word];
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The name's words first (so "red apple" is Red by "red"), then the keywords in their order. */
function describingWords(name: string, keywords: readonly string[]): string[] {
  const split = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...split(name), ...keywords.flatMap(split)];
}

export interface EmojiDetails {
  emoji: string;
  emojiName: string;
  unicode: string;
  category: EmojiCategory;
  emojiMood: string;
  emojiColor: string;
  isSymbol: boolean;
  emojiType: string;
}

/** Each word capitalised, also after an opening quote (`Japanese “Here” Button`); never after an apostrophe (`Man’s Shoe`). */
function titleCase(label: string): string {
  return label.replace(/(^|[\s(\-“‘"])(\p{Ll})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase());
}

/**
 * Unicode's fully-qualified form of an emoji, as emoji-test.txt lists it: Emojibase writes U+FE0F
 * after every single emoji, also after those shown as emoji by default (⌚ ☕ 👍 🏆, which have
 * Emoji_Presentation), where Unicode has none; after text-default characters (☺️ ❤️) it belongs.
 */
function fullyQualified(entry: { emoji: string; hexcode: string }): string {
  const sequence = String.fromCodePoint(...entry.hexcode.split('-').map((hex) => Number.parseInt(hex, 16)));
  return entry.emoji === `${sequence}\uFE0F` && /^\p{Emoji_Presentation}/u.test(sequence) ? sequence : entry.emoji;
}

/** `U+<hex>` per code point, with at least four hex digits as Unicode writes them (`U+0023`, `U+1F355`). */
export function codePoints(emoji: string): string {
  return Array.from(emoji, (character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/**
 * Every fully-qualified emoji of the Emojibase data set (the current Unicode emoji list, in its
 * default skin tone), built once at boot. Components and lone regional indicators are left out.
 */
export function buildEmojiCatalog(): readonly EmojiDetails[] {
  const subgroupKeys = emojibaseGroups.subgroups as Record<string, string>;
  const catalog: EmojiDetails[] = [];
  for (const entry of emojibaseData) {
    if (entry.group === undefined) continue;
    const category = (EMOJI_CATEGORIES as Record<number, EmojiCategory | undefined>)[entry.group];
    if (category === undefined) continue;
    const words = describingWords(entry.label, entry.tags ?? []);
    const emoji = fullyQualified(entry);
    catalog.push(Object.freeze({
      emoji,
      emojiName: titleCase(entry.label),
      unicode: codePoints(emoji),
      category,
      emojiMood: firstMatch(words, MOOD_WORDS) ?? CATEGORY_DEFAULTS[category].mood,
      emojiColor: firstMatch(words, COLOR_WORDS) ?? CATEGORY_DEFAULTS[category].color,
      isSymbol: category === 'Symbols',
      emojiType: emojiType(category, subgroupKeys[String(entry.subgroup)] ?? ''),
    }));
  }
  return Object.freeze(catalog);
}
