import { z } from 'zod';
import { ApiError, validationError } from '../../http/api-error.ts';
import type { RandomSource } from '../../runtime/random-source.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { anyCasePattern } from '@utility-api/render-jobs';
import { queryBoolean } from '../query-fields.ts';
import { buildEmojiCatalog, CATEGORY_NAMES, EMOJI_COLORS, EMOJI_MOODS, EMOJI_TYPES, findCategory, type EmojiCategory, type EmojiDetails } from './emoji-catalog.ts';

export interface EmojiFilter {
  category?: EmojiCategory | undefined;
  isSymbol?: boolean | undefined;
}

/** Answers draws from the catalog, with each filter's pool computed once and reused. */
export class EmojiPicker {
  readonly #catalog: readonly EmojiDetails[];
  readonly #pools = new Map<string, readonly EmojiDetails[]>();

  constructor(catalog: readonly EmojiDetails[]) {
    this.#catalog = catalog;
  }

  pool(filter: EmojiFilter): readonly EmojiDetails[] {
    const key = `${filter.category ?? '*'}|${filter.isSymbol ?? '*'}`;
    let pool = this.#pools.get(key);
    if (!pool) {
      const { category, isSymbol } = filter;
      pool = this.#catalog.filter((emoji) => (category === undefined || emoji.category === category) && (isSymbol === undefined || emoji.isSymbol === isSymbol));
      this.#pools.set(key, pool);
    }
    return pool;
  }

  /** Up to `count` distinct emojis, uniformly chosen; fewer only when the pool is smaller. */
  pick(filter: EmojiFilter, count: number, random: RandomSource): EmojiDetails[] {
    const pool = this.pool(filter);
    const wanted = Math.min(count, pool.length);
    const chosen = new Set<number>();
    while (chosen.size < wanted) chosen.add(random.integer(pool.length));
    return [...chosen].map((index) => pool[index] as EmojiDetails);
  }
}

export const MAX_EMOJI_COUNT = 10;

const COUNT_TEXT = /^[+-]?\d+$/;

/**
 * Integer text, capped at MAX_EMOJI_COUNT while parsing: every larger value gives 10, however many
 * digits it has, instead of failing a numeric upper bound that would name 2^53 - 1.
 */
function countField() {
  const expectation = 'must be a whole number, 1 or more';
  return z.preprocess(
    (value) => (typeof value === 'string' && COUNT_TEXT.test(value) ? Math.min(Number(value), MAX_EMOJI_COUNT) : value),
    z.number({ error: expectation }).int({ error: expectation }).min(1, { error: expectation }).meta({
      description: `How many emojis, 1 or more (default 1); values above ${MAX_EMOJI_COUNT} give ${MAX_EMOJI_COUNT}.`,
      examples: [1],
    }),
  );
}

const querySchema = z.object({
  category: z
    .string()
    .max(64, { error: 'is too long' })
    .meta({
      description: `One of: ${CATEGORY_NAMES.join(', ')} (case-insensitive; also as a slug such as \`food-drink\`).`,
      examples: ['Food & Drink'],
      // What findCategory accepts, so a validating proxy or a generated client refuses what the server would.
      pattern: anyCasePattern([...CATEGORY_NAMES, ...CATEGORY_NAMES.map((name) => name.toLowerCase().replace(/ & /g, '-'))], { surroundingSpace: true }),
    })
    .optional(),
  isSymbol: queryBoolean('`true` for symbols only, `false` for everything but symbols.').optional(),
  count: countField().optional(),
});

const emojiSchema = z.object({
  emoji: z.string(),
  emojiName: z.string(),
  unicode: z.string(),
  category: z.enum(CATEGORY_NAMES as [string, ...string[]]),
  emojiMood: z.string(),
  emojiColor: z.string(),
  isSymbol: z.boolean(),
  emojiType: z.string(),
});

const resultSchema = z
  .record(z.string().regex(/^emoji([1-9]|10)$/), emojiSchema)
  .meta({ description: 'Keys `emoji1` to `emoji<count>`.' });

export type RandomEmojiResult = Record<`emoji${number}`, EmojiDetails>;

export function randomEmojis(picker: EmojiPicker, filter: EmojiFilter, count: number, random: RandomSource): RandomEmojiResult {
  const picked = picker.pick(filter, Math.min(count, MAX_EMOJI_COUNT), random);
  return Object.fromEntries(picked.map((emoji, index) => [`emoji${index + 1}`, emoji]));
}

export function randomEmojiEndpoint(random: RandomSource) {
  const picker = new EmojiPicker(buildEmojiCatalog());
  return defineEndpoint({
    operationId: 'randomEmoji',
    methods: ['GET'],
    path: '/v1/random-emoji',
    summary: 'Random emojis with details, optionally filtered',
    description: [
      `Draws from the full current Unicode emoji list (Emojibase data, ${picker.pool({}).length} emojis in their default`,
      'skin tone; skin-tone and hair components and lone regional indicator letters are not included).',
      'Emojis in one answer are distinct.',
      `\`category\` is a CLDR group name, matched case-insensitively: ${CATEGORY_NAMES.map((name) => `\`${name}\``).join(', ')};`,
      'the slug form (`food-drink`) works too; anything else is a 400 listing the valid names. Encode `&` as `%26`.',
      '`isSymbol` is true exactly for the `Symbols` category, and then `emojiType` is `Symbol`. For other emojis `emojiType`',
      `comes from the CLDR subgroup: ${EMOJI_TYPES.map((type) => `\`${type}\``).join(', ')}.`,
      '`count` defaults to 1; 0, negatives and non-integers are a 400; values above 10 give 10.',
      'If the filters leave fewer emojis than `count`, all of them are returned; if they leave none, the answer is a 404.',
      '`unicode` lists every code point of the emoji as `U+<hex>` with at least four uppercase hex digits, as Unicode writes',
      'them, space-separated for sequences (`U+1F355`; `U+2764 U+FE0F`; `U+0023 U+FE0F U+20E3` for #️⃣).',
      '`emojiName` is the CLDR name in title case.',
      '`emojiMood` and `emojiColor`: the words of the name, then the Emojibase keywords, are looked up in order in a fixed word',
      'table (for example "smile" → `Happy`, "food" → `Hungry`, "cheese" → `Yellow`, "leaf" → `Green`); the first hit decides, and',
      'without a hit the category decides (Smileys & Emotion: `Expressive` and `Yellow`; Food & Drink: `Hungry` and `Brown`; ...).',
      `Moods used: ${EMOJI_MOODS.join(', ')}. Colors used: ${EMOJI_COLORS.join(', ')}.`,
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The emojis, keyed `emoji1` ... `emoji<count>`.',
        schema: resultSchema,
        example: {
          emoji1: { emoji: '🍕', emojiName: 'Pizza', unicode: 'U+1F355', category: 'Food & Drink', emojiMood: 'Hungry', emojiColor: 'Yellow', isSymbol: false, emojiType: 'Food' },
        },
      },
      400: { description: 'Unknown category, or `count`/`isSymbol` malformed.' },
      404: { description: 'No emoji matches the filters (for example `category=Food & Drink&isSymbol=true`).' },
    },
    handle: ({ query }) => {
      const category = query.category === undefined ? undefined : findCategory(query.category);
      if (query.category !== undefined && category === undefined) {
        throw validationError([{ in: 'query', field: 'category', message: `must be one of: ${CATEGORY_NAMES.join(', ')}` }]);
      }
      const filter: EmojiFilter = { category, isSymbol: query.isSymbol };
      if (picker.pool(filter).length === 0) throw new ApiError('no_matching_emoji', 'No emoji matches this combination of category and isSymbol.');
      return randomEmojis(picker, filter, query.count ?? 1, random);
    },
  });
}
