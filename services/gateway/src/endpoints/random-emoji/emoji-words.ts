import type { EmojiCategory } from './emoji-categories.ts';

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

const CATEGORY_MOODS: Record<EmojiCategory, string> = {
  'Smileys & Emotion': 'Expressive',
  'People & Body': 'Friendly',
  'Animals & Nature': 'Calm',
  'Food & Drink': 'Hungry',
  'Travel & Places': 'Adventurous',
  Activities: 'Excited',
  Objects: 'Curious',
  Symbols: 'Neutral',
  Flags: 'Proud',
};

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

const CATEGORY_COLORS: Record<EmojiCategory, string> = {
  'Smileys & Emotion': 'Yellow',
  'People & Body': 'Yellow',
  'Animals & Nature': 'Brown',
  'Food & Drink': 'Brown',
  'Travel & Places': 'Gray',
  Activities: 'Multicolor',
  Objects: 'Gray',
  Symbols: 'Blue',
  Flags: 'Multicolor',
};

export const EMOJI_MOODS = [...new Set([...Object.values(MOOD_WORDS), ...Object.values(CATEGORY_MOODS)])];
export const EMOJI_COLORS = [...new Set([...Object.values(COLOR_WORDS), ...Object.values(CATEGORY_COLORS)])];

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
export function describingWords(name: string, keywords: readonly string[]): string[] {
  const split = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...split(name), ...keywords.flatMap(split)];
}

export function emojiMood(words: readonly string[], category: EmojiCategory): string {
  return firstMatch(words, MOOD_WORDS) ?? CATEGORY_MOODS[category];
}

export function emojiColor(words: readonly string[], category: EmojiCategory): string {
  return firstMatch(words, COLOR_WORDS) ?? CATEGORY_COLORS[category];
}
