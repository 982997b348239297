import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import type { RandomSource } from '../../runtime/random-source.ts';
import { defineEndpoint } from '../endpoint.ts';
import { isoTimestamp } from '../timestamp.ts';
import { graphemes } from './graphemes.ts';
import { guessWordType } from './word-type.ts';

export const MAX_WORD_GRAPHEMES = 64;
/** Bounds the work of segmenting before the grapheme count is known. */
const MAX_WORD_CODE_UNITS = 512;

const DIFFICULTY_LEVELS = ['Easy', 'Medium', 'Hard', 'Expert'] as const;

const querySchema = z.object({
  word: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .min(1, { error: 'must not be empty' })
    .max(MAX_WORD_CODE_UNITS, { error: `must be at most ${MAX_WORD_GRAPHEMES} characters` })
    // Bidi overrides are refused too: they make the echoed word display as something else.
    .refine((word) => !/[\p{White_Space}\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(word), {
      error: 'must be a single word with no spaces or control characters',
    })
    .refine((word) => graphemes(word).length <= MAX_WORD_GRAPHEMES, {
      error: `must be at most ${MAX_WORD_GRAPHEMES} characters`,
    })
    .meta({ description: `One word of 1 to ${MAX_WORD_GRAPHEMES} characters, no whitespace.`, examples: ['example'] }),
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

/** Fisher-Yates, then one swap if the shuffle happened to restore the word: never the input back
 *  unless every character is the same. */
export function shuffleGraphemes(characters: readonly string[], random: RandomSource): string[] {
  const shuffled = [...characters];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = random.integer(index + 1);
    [shuffled[index], shuffled[other]] = [shuffled[other] as string, shuffled[index] as string];
  }
  if (shuffled.every((character, index) => character === characters[index])) {
    const first = shuffled[0];
    const differing = shuffled.findIndex((character) => character !== first);
    if (differing > 0) [shuffled[0], shuffled[differing]] = [shuffled[differing] as string, first as string];
  }
  return shuffled;
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
      `\`word\` is one word of 1 to ${MAX_WORD_GRAPHEMES} characters with no whitespace or control characters; anything else is a 400.`,
      'Characters are user-perceived characters (Unicode grapheme clusters after NFC normalization), so an accented letter',
      'or an emoji such as 👩‍👩‍👧 moves as one piece and is never split. The shuffle is uniform (Fisher-Yates over the',
      "operating system's CSPRNG) and `scrambled` always differs from the word, except when all its characters are equal (`aaa`).",
      '`wordLength` and `uniqueCharacterCount` count characters in that sense, case-sensitively.',
      '`difficultyLevel` follows the length: 1-4 `Easy`, 5-7 `Medium`, 8-10 `Hard`, 11 or more `Expert`;',
      '`scrambleComplexity` is the same tier as a number (0 Easy, 1 Medium, 2 Hard, 3 Expert).',
      '`hint` is the first character of the word. `wordType` is a guess from English suffixes, not a dictionary lookup:',
      '`-ly` → `Adverb`; `-ing`, `-ize`, `-ise`, `-ify`, `-ed` → `Verb`; `-ous`, `-ful`, `-ive`, `-able`, `-ible`, `-less`, `-ish`, `-ary`',
      '→ `Adjective` (each only for words of 5 or more letters); other words of letters → `Noun`; words with digits or symbols → `Other`.',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: { description: 'The scrambled word.', schema: resultSchema },
      400: { description: '`word` missing, empty, too long, or containing whitespace or control characters.' },
    },
    handle: ({ query }) => scrambleWord(query.word, random, clock),
  });
}
