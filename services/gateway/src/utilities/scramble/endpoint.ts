import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import type { RandomSource } from '../../runtime/random-source.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { isoTimestamp } from '../answer-fields.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** User-perceived characters: an emoji ZWJ sequence or a letter with its accents stays whole. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text.normalize('NFC')), (part) => part.segment);
}

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

export const MAX_WORD_GRAPHEMES = 64;
/**
 * Bounds the work of segmenting before the grapheme count is known. zod's string `max` counts code
 * points; the longest RGI emoji (a kiss or couple with two skin tones) has 10, so any word of
 * MAX_WORD_GRAPHEMES emojis or letters fits, and only clusters stacked with many marks can hit it.
 */
const MAX_WORD_CODE_POINTS = MAX_WORD_GRAPHEMES * 16;

/**
 * A subdivision flag such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿: the black flag, a subdivision id (3 to 6 tag digits or
 * lowercase tag letters, `gbsct`), then the cancel tag. Longer tag runs could hide text.
 */
const TAG_SEQUENCE = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{3,6}\u{E007F}/gu;
/**
 * Whitespace, control characters and invisible format characters (zero-width space, word joiner,
 * soft hyphen, bidi marks and overrides, which make the echoed word display as something else),
 * except the joiners emoji and some scripts need. Tag characters only count as part of a flag.
 */
const FORBIDDEN_CHARACTER = /[\p{White_Space}\p{Cc}]|(?![\u200c\u200d])\p{Cf}/u;

export function isSingleWord(word: string): boolean {
  return !FORBIDDEN_CHARACTER.test(word.replace(TAG_SEQUENCE, ''));
}

const DIFFICULTY_LEVELS = ['Easy', 'Medium', 'Hard', 'Expert'] as const;

const querySchema = z.object({
  word: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .min(1, { error: 'must not be empty' })
    .max(MAX_WORD_CODE_POINTS, { error: `must be at most ${MAX_WORD_GRAPHEMES} characters (and ${MAX_WORD_CODE_POINTS} code points)`, abort: true })
    .refine(isSingleWord, { error: 'must be a single word with no spaces, control characters or invisible formatting characters' })
    .refine((word) => graphemes(word).length <= MAX_WORD_GRAPHEMES, { error: `must be at most ${MAX_WORD_GRAPHEMES} characters` })
    .meta({
      description: `One word of 1 to ${MAX_WORD_GRAPHEMES} characters (graphemes), no whitespace, control or invisible formatting characters. JSON Schema counts code points, so \`maxLength\` states the limit for words of one code point per character; the server counts an emoji sequence or a letter with its accents as one character.`,
      examples: ['example'],
      maxLength: MAX_WORD_GRAPHEMES,
    }),
});

const resultSchema = z.object({
  scrambled: z.string(),
  original: z.string(),
  wordLength: z.number().int(),
  uniqueCharacterCount: z.number().int(),
  difficultyLevel: z.enum(DIFFICULTY_LEVELS),
  timestamp: z.string(),
  isValid: z.boolean(),
  scrambleComplexity: z.number().int().min(0).max(3),
  hint: z.string(),
  wordType: z.enum(['Noun', 'Verb', 'Adjective', 'Adverb', 'Other']),
});

export type ScrambleResult = z.infer<typeof resultSchema>;

function difficultyTier(length: number): number {
  if (length <= 4) return 0;
  if (length <= 7) return 1;
  if (length <= 10) return 2;
  return 3;
}

function fisherYates(characters: readonly string[], random: RandomSource): string[] {
  const shuffled = [...characters];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = random.integer(index + 1);
    [shuffled[index], shuffled[other]] = [shuffled[other] as string, shuffled[index] as string];
  }
  return shuffled;
}

/**
 * With two or more distinct characters a uniform shuffle restores the word with probability at
 * most 1/2, so 64 rejected draws in a row happen with probability below 2^-64: only a broken
 * random source gets there, and then one swap still keeps the promise that the word changes.
 */
const MAX_SHUFFLE_ATTEMPTS = 64;

/**
 * Fisher-Yates, redrawn while it restores the word. Rejection keeps the result uniform over the
 * arrangements that differ from the input (swapping the identity into one fixed arrangement would
 * make that one twice as likely). The input comes back only when every character is the same.
 */
export function shuffleGraphemes(characters: readonly string[], random: RandomSource): string[] {
  const first = characters[0];
  const differing = characters.findIndex((character) => character !== first);
  if (differing < 0) return [...characters];
  for (let attempt = 0; attempt < MAX_SHUFFLE_ATTEMPTS; attempt += 1) {
    const shuffled = fisherYates(characters, random);
    if (shuffled.some((character, index) => character !== characters[index])) return shuffled;
  }
  const swapped = [...characters];
  [swapped[0], swapped[differing]] = [characters[differing] as string, first as string];
  return swapped;
}

export function scrambleWord(word: string, random: RandomSource, clock: Clock): ScrambleResult {
  const characters = graphemes(word);
  const tier = difficultyTier(characters.length);
  return {
    scrambled: shuffleGraphemes(characters, random).join(''),
    original: word,
    wordLength: characters.length,
    uniqueCharacterCount: new Set(characters).size,
    difficultyLevel: DIFFICULTY_LEVELS[tier] as (typeof DIFFICULTY_LEVELS)[number],
    timestamp: isoTimestamp(clock),
    isValid: true,
    scrambleComplexity: tier,
    hint: characters[0] as string,
    wordType: guessWordType(word),
  };
}

export function scrambleEndpoint(random: RandomSource, clock: Clock) {
  return defineEndpoint({
    operationId: 'scramble',
    methods: ['GET'],
    path: '/v1/scramble',
    summary: 'Shuffle the letters of a word',
    description: [
      `\`word\` is one word of 1 to ${MAX_WORD_GRAPHEMES} characters with no whitespace, control characters or invisible`,
      'formatting characters (zero-width space, soft hyphen, bidi marks; the zero-width joiners inside emojis and the tags of',
      'subdivision flags are fine); anything else is a 400. The raw word may also hold at most',
      `${MAX_WORD_CODE_POINTS} code points, which every word of ${MAX_WORD_GRAPHEMES} letters or emojis satisfies.`,
      'Characters are user-perceived characters (Unicode grapheme clusters after NFC normalization), so an accented letter',
      'or an emoji such as 👩‍👩‍👧 moves as one piece and is never split. The shuffle is a Fisher-Yates shuffle over the',
      "operating system's CSPRNG, redrawn while it gives the word back: `scrambled` always differs from the word, except when",
      'all its characters are equal (`aaa`), and every other arrangement of its characters is equally likely.',
      '`wordLength` and `uniqueCharacterCount` count characters in that sense, case-sensitively.',
      '`difficultyLevel` follows the length: 1-4 `Easy`, 5-7 `Medium`, 8-10 `Hard`, 11 or more `Expert`;',
      '`scrambleComplexity` is the same tier as a number (0 Easy, 1 Medium, 2 Hard, 3 Expert).',
      '`hint` is the first character of the word. `wordType` is a guess from English suffixes, not a dictionary lookup:',
      '`-ly` → `Adverb`; `-ing`, `-ize`, `-ise`, `-ify`, `-ed` → `Verb`; `-ous`, `-ful`, `-ive`, `-able`, `-ible`, `-less`, `-ish`, `-ary`',
      '→ `Adjective` (each only for words of 5 or more characters, case-insensitive); other words of letters (apostrophes and',
      'hyphens allowed) → `Noun`; words with digits, emojis or other symbols → `Other`.',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The scrambled word.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          scrambled: 'amelexp',
          original: 'example',
          wordLength: 7,
          uniqueCharacterCount: 6,
          difficultyLevel: 'Medium',
          timestamp: '2024-06-15T12:00:00.000Z',
          isValid: true,
          scrambleComplexity: 1,
          hint: 'e',
          wordType: 'Noun',
        },
      },
      400: { description: '`word` missing, empty, too long, or containing whitespace or control characters.' },
    },
    handle: ({ query }) => scrambleWord(query.word, random, clock),
  });
}
