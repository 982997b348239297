import { createRequire } from 'node:module';
import test from 'ava';
import { buildEmojiCatalog, codePoints, type EmojiDetails, CATEGORY_NAMES, findCategory, EMOJI_TYPES, EMOJI_COLORS, EMOJI_MOODS } from '../../../../services/gateway/src/utilities/random-emoji/emoji-catalog.ts';
import { EmojiPicker } from '../../../../services/gateway/src/utilities/random-emoji/endpoint.ts';
import { MAX_EMOJI_COUNT, randomEmojis } from '../../../../services/gateway/src/utilities/random-emoji/endpoint.ts';
import { seededRandomSource } from '../../../../services/gateway/src/runtime/random-source.ts';

// The raw data, resolved as the gateway resolves it (the workspace root does not depend on it).
const requireFromGateway = createRequire(new URL('../../../../services/gateway/package.json', import.meta.url));
const emojibaseData = requireFromGateway('emojibase-data/en/data.json') as readonly { emoji: string; hexcode: string; group?: number }[];

const catalog = buildEmojiCatalog();
const byEmoji = new Map(catalog.map((entry) => [entry.emoji, entry]));

const CLDR_GROUPS: string[] = [
  'Smileys & Emotion',
  'People & Body',
  'Animals & Nature',
  'Food & Drink',
  'Travel & Places',
  'Activities',
  'Objects',
  'Symbols',
  'Flags',
];

const FIELDS = ['emoji', 'emojiName', 'unicode', 'category', 'emojiMood', 'emojiColor', 'isSymbol', 'emojiType'];

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

function entry(emoji: string): EmojiDetails {
  const found = byEmoji.get(emoji);
  if (!found) throw new Error(`${emoji} is not in the catalog`);
  return found;
}

test('the catalog is the whole Emojibase set minus components and lone regional indicators', (t) => {
  t.true(catalog.length > 1800, `only ${catalog.length} entries`);
  // The same emojis in the same order; Emojibase's extra U+FE0F after default-emoji characters aside (next test).
  const expected = emojibaseData.filter((item) => item.group !== undefined && item.group !== 2).map((item) => item.emoji.replace(/\uFE0F$/u, ''));
  t.deepEqual(
    catalog.map((item) => item.emoji.replace(/\uFE0F$/u, '')),
    expected,
  );
  t.is(byEmoji.size, catalog.length, 'emojis are distinct');
  for (const component of ['🏻', '🏿', '🦰', '🦲', '🇦', '🇿']) t.false(byEmoji.has(component), component);
});

test('every entry has exactly the documented fields, all non-empty', (t) => {
  for (const item of catalog) {
    t.deepEqual(Object.keys(item).sort(), [...FIELDS].sort());
    for (const field of ['emoji', 'emojiName', 'unicode', 'category', 'emojiMood', 'emojiColor', 'emojiType'] as const) {
      if (typeof item[field] !== 'string' || item[field].trim() === '') t.fail(`${item.emoji} has an empty ${field}`);
    }
    if (typeof item.isSymbol !== 'boolean') t.fail(`${item.emoji} isSymbol is not a boolean`);
  }
  t.pass();
});

test('entries are frozen so a response cannot alter the catalog', (t) => {
  t.true(Object.isFrozen(catalog));
  t.true(Object.isFrozen(entry('🍕')));
});

test('unicode is U+<hex> per code point, at least four digits, matching the emoji and Emojibase', (t) => {
  const hexcodes = new Map(emojibaseData.map((item) => [item.emoji.replace(/\uFE0F$/u, ''), item.hexcode]));
  for (const item of catalog) {
    if (!/^U\+[0-9A-F]+( U\+[0-9A-F]+)*$/.test(item.unicode)) t.fail(`${item.emoji}: ${item.unicode}`);
    const points = item.unicode.split(' ').map((part) => Number.parseInt(part.slice(2), 16));
    if (String.fromCodePoint(...points) !== item.emoji) t.fail(`${item.emoji}: ${item.unicode} spells something else`);
    if (item.unicode.split(' ').some((part) => part.length < 6)) t.fail(`${item.emoji}: ${item.unicode} has a short code point`);
    // Emojibase's hexcode is the same sequence with variation selectors left out.
    const withoutSelectors = item.unicode
      .split(' ')
      .filter((part) => part !== 'U+FE0F')
      .map((part) => part.slice(2))
      .join('-');
    const hexcode = hexcodes.get(item.emoji.replace(/\uFE0F$/u, ''));
    if (hexcode?.split('-').filter((part) => part !== 'FE0F').join('-') !== withoutSelectors) {
      t.fail(`${item.emoji}: ${item.unicode} disagrees with Emojibase ${hexcode}`);
    }
  }
  t.is(entry('❤️').unicode, 'U+2764 U+FE0F');
  t.is(entry('☺️').unicode, 'U+263A U+FE0F');
  t.is(entry('#️⃣').unicode, 'U+0023 U+FE0F U+20E3');
  t.is(entry('👩‍👩‍👧').unicode, 'U+1F469 U+200D U+1F469 U+200D U+1F467');
  t.is(codePoints('©'), 'U+00A9');
  t.is(codePoints('\u{1F355}'), 'U+1F355');
});

test("emojis are in Unicode's fully-qualified form: no U+FE0F after a character that is an emoji by default", (t) => {
  // emoji-test.txt: ⌚ is "231A ; fully-qualified"; "231A FE0F" is not listed at all. Emojibase adds it to 152 emojis.
  const extra = catalog.filter((item) => /\p{Emoji_Presentation}\uFE0F/u.test(item.emoji)).map((item) => item.unicode);
  t.deepEqual(extra, []);
  for (const [emoji, unicode] of [['⌚', 'U+231A'], ['☕', 'U+2615'], ['✅', 'U+2705'], ['👍', 'U+1F44D'], ['🏆', 'U+1F3C6'], ['♈', 'U+2648']] as const) {
    t.is(entry(emoji).unicode, unicode);
  }
  t.is(catalog.length, 1914);
});

test('names are title-cased after opening quotes too, never after an apostrophe', (t) => {
  t.is(entry('🈁').emojiName, 'Japanese “Here” Button');
  t.is(entry('👞').emojiName, 'Man’s Shoe');
});

test('isSymbol, category Symbols and emojiType Symbol always agree', (t) => {
  for (const item of catalog) {
    const symbolCategory = item.category === 'Symbols';
    if (item.isSymbol !== symbolCategory || (item.emojiType === 'Symbol') !== symbolCategory) {
      t.fail(`${item.emoji}: isSymbol ${item.isSymbol}, category ${item.category}, emojiType ${item.emojiType}`);
    }
  }
  t.true(catalog.some((item) => item.isSymbol));
  t.true(catalog.some((item) => !item.isSymbol));
});

test('categories are exactly the nine CLDR group names, each used', (t) => {
  t.deepEqual([...CATEGORY_NAMES], CLDR_GROUPS);
  t.deepEqual([...new Set(catalog.map((item) => item.category))].sort(), [...CLDR_GROUPS].sort());
});

test('moods, colors and types come from the documented lists', (t) => {
  for (const item of catalog) {
    if (!EMOJI_MOODS.includes(item.emojiMood)) t.fail(`${item.emoji}: mood ${item.emojiMood}`);
    if (!EMOJI_COLORS.includes(item.emojiColor)) t.fail(`${item.emoji}: color ${item.emojiColor}`);
    if (!EMOJI_TYPES.includes(item.emojiType)) t.fail(`${item.emoji}: type ${item.emojiType}`);
  }
  t.pass();
});

test('names are CLDR names in title case; mood and color follow the word table', (t) => {
  t.like(entry('😀'), { emojiName: 'Grinning Face', category: 'Smileys & Emotion', emojiMood: 'Happy', emojiColor: 'Yellow', emojiType: 'Face' });
  t.like(entry('🍎'), { emojiName: 'Red Apple', emojiColor: 'Red', emojiMood: 'Hungry' });
  t.like(entry('❤️'), { emojiName: 'Red Heart', emojiMood: 'Loving', emojiColor: 'Red', emojiType: 'Heart' });
  t.like(entry('🇺🇸'), { emojiName: 'Flag: United States', category: 'Flags', emojiType: 'Flag', isSymbol: false });
  t.like(entry('#️⃣'), { category: 'Symbols', emojiType: 'Symbol', isSymbol: true });
  t.like(entry('🐶'), { category: 'Animals & Nature', emojiType: 'Animal' });
});

test('findCategory is case-insensitive, trims, and accepts slugs', (t) => {
  t.is(findCategory('Food & Drink'), 'Food & Drink');
  t.is(findCategory('food & drink'), 'Food & Drink');
  t.is(findCategory('FOOD & DRINK'), 'Food & Drink');
  t.is(findCategory('food-drink'), 'Food & Drink');
  t.is(findCategory('Smileys-Emotion'), 'Smileys & Emotion');
  t.is(findCategory('travel-places'), 'Travel & Places');
  t.is(findCategory(' symbols '), 'Symbols');
  t.is(findCategory('flags'), 'Flags');
  for (const name of CLDR_GROUPS) t.is<string | undefined, string>(findCategory(name.toUpperCase()), name);
});

test('findCategory refuses other names', (t) => {
  for (const text of ['', 'food', 'Food and Drink', 'Food&Drink', 'component', 'Symbol', 'smileys_emotion']) {
    t.is(findCategory(text), undefined, text);
  }
});

test('pick returns distinct emojis, as many as asked', (t) => {
  const picker = new EmojiPicker(catalog);
  const random = seededRandomSource(1);
  for (let round = 0; round < 200; round += 1) {
    const picked = picker.pick({}, MAX_EMOJI_COUNT, random);
    t.is(picked.length, MAX_EMOJI_COUNT);
    t.is(new Set(picked.map((item) => item.emoji)).size, MAX_EMOJI_COUNT);
  }
});

test('pick respects the category and isSymbol filters', (t) => {
  const picker = new EmojiPicker(catalog);
  const random = seededRandomSource(2);
  for (let round = 0; round < 100; round += 1) {
    for (const item of picker.pick({ category: 'Food & Drink' }, 10, random)) t.is(item.category, 'Food & Drink');
    for (const item of picker.pick({ isSymbol: true }, 10, random)) t.is(item.category, 'Symbols');
    for (const item of picker.pick({ isSymbol: false }, 10, random)) t.not(item.category, 'Symbols');
    for (const item of picker.pick({ category: 'Flags', isSymbol: false }, 10, random)) t.is(item.category, 'Flags');
  }
  t.is(picker.pool({ category: 'Food & Drink', isSymbol: true }).length, 0);
  t.is(picker.pool({ isSymbol: true }).length + picker.pool({ isSymbol: false }).length, catalog.length);
  t.is(picker.pool({ category: 'Symbols' }).length, catalog.filter((item) => item.category === 'Symbols').length);
});

test('pick is capped by the pool size and returns nothing from an empty pool', (t) => {
  const small = catalog.slice(0, 3);
  const picker = new EmojiPicker(small);
  const picked = picker.pick({}, 10, seededRandomSource(3));
  t.deepEqual(
    picked.map((item) => item.emoji).sort(),
    small.map((item) => item.emoji).sort(),
  );
  t.deepEqual(new EmojiPicker(catalog).pick({ category: 'Food & Drink', isSymbol: true }, 5, seededRandomSource(3)), []);
});

test('pools are computed once per filter', (t) => {
  const picker = new EmojiPicker(catalog);
  t.is(picker.pool({ category: 'Objects' }), picker.pool({ category: 'Objects' }));
  t.not(picker.pool({ category: 'Objects' }), picker.pool({ category: 'Objects', isSymbol: false }));
});

test('randomEmojis keys the answer emoji1 to emoji<count> and caps count at 10', (t) => {
  const picker = new EmojiPicker(catalog);
  const random = seededRandomSource(4);
  t.deepEqual(Object.keys(randomEmojis(picker, {}, 1, random)), ['emoji1']);
  t.deepEqual(Object.keys(randomEmojis(picker, {}, 3, random)), ['emoji1', 'emoji2', 'emoji3']);
  const capped = randomEmojis(picker, {}, 50, random);
  t.deepEqual(
    Object.keys(capped),
    Array.from({ length: 10 }, (_, index) => `emoji${index + 1}`),
  );
});

test('single draws are uniform over a small pool (chi-square, seeded)', (t) => {
  const pool = catalog.slice(0, 5);
  const picker = new EmojiPicker(pool);
  const random = seededRandomSource(20240615);
  const draws = 20_000;
  const counts = new Map(pool.map((item) => [item.emoji, 0]));
  for (let draw = 0; draw < draws; draw += 1) {
    const [picked] = picker.pick({}, 1, random);
    if (picked) counts.set(picked.emoji, (counts.get(picked.emoji) ?? 0) + 1);
  }
  t.is([...counts.values()].reduce((sum, count) => sum + count, 0), draws);
  // 4 degrees of freedom: 18.5 is the 0.1% critical value; 30 leaves room while still catching any real bias.
  const statistic = chiSquare([...counts.values()]);
  t.true(statistic < 30, `chi-square ${statistic.toFixed(2)} for ${JSON.stringify([...counts.values()])}`);
});

test('draws of two distinct emojis are uniform over all ordered pairs (chi-square, seeded)', (t) => {
  const pool = catalog.slice(0, 4);
  const picker = new EmojiPicker(pool);
  const random = seededRandomSource(77);
  const counts = new Map<string, number>();
  for (let draw = 0; draw < 24_000; draw += 1) {
    const pair = picker.pick({}, 2, random).map((item) => item.emoji);
    if (pair.length !== 2 || pair[0] === pair[1]) t.fail(`not two distinct emojis: ${pair.join(',')}`);
    const key = pair.join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  t.is(counts.size, 12);
  // 11 degrees of freedom: 31.3 is the 0.1% critical value.
  const statistic = chiSquare([...counts.values()]);
  t.true(statistic < 45, `chi-square ${statistic.toFixed(2)}`);
});
