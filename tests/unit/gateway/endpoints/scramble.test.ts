import test from 'ava';
import { buildEmojiCatalog } from '../../../../services/gateway/src/utilities/random-emoji/emoji-catalog.ts';
import { graphemes, guessWordType, isSingleWord, MAX_WORD_GRAPHEMES, scrambleWord, shuffleGraphemes } from '../../../../services/gateway/src/utilities/scramble/endpoint.ts';
import { fixedClock } from '../../../../services/gateway/src/runtime/clock.ts';
import { seededRandomSource, type RandomSource } from '../../../../services/gateway/src/runtime/random-source.ts';

const clock = fixedClock(Date.UTC(2024, 0, 1));
const FAMILY = '👩‍👩‍👧'; // woman, ZWJ, woman, ZWJ, girl
const KISS = '👩🏻‍❤️‍💋‍👨🏼'; // 10 code points, the longest kind of RGI emoji
const SCOTLAND = '🏴󠁧󠁢󠁳󠁣󠁴󠁿'; // black flag + tag letters + cancel tag

function sorted(characters: readonly string[]): string[] {
  return [...characters].sort();
}

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

test('graphemes keeps emoji sequences and accented letters whole, composed to NFC', (t) => {
  t.deepEqual(graphemes(`a${FAMILY}b`), ['a', FAMILY, 'b']);
  t.deepEqual(graphemes('🇺🇸🇫🇷'), ['🇺🇸', '🇫🇷']);
  t.deepEqual(graphemes(KISS + SCOTLAND), [KISS, SCOTLAND]);
  t.deepEqual(graphemes('café'), ['c', 'a', 'f', 'é']);
  t.deepEqual(graphemes('cafe\u0301'), ['c', 'a', 'f', '\u00e9']);
  // A letter with two combining marks that has no precomposed form stays one piece.
  t.deepEqual(graphemes('xq\u0307\u0323'), ['x', 'q\u0323\u0307']);
});

test('scrambling preserves the multiset of graphemes', (t) => {
  const words = ['example', 'ab', 'café', 'cafe\u0301', `${FAMILY}ab${FAMILY}c`, '🇺🇸🇫🇷🇩🇪', `${KISS}x${SCOTLAND}`, 'Mississippi', 'q\u0307\u0323rs'];
  for (const word of words) {
    const expected = graphemes(word);
    for (let seed = 0; seed < 200; seed += 1) {
      const result = scrambleWord(word, seededRandomSource(seed), clock);
      const pieces = graphemes(result.scrambled);
      if (JSON.stringify(sorted(pieces)) !== JSON.stringify(sorted(expected))) {
        t.fail(`${word} (seed ${seed}) scrambled into ${result.scrambled}`);
      }
      // No code points were lost or made up.
      if ([...result.scrambled].length !== [...word.normalize('NFC')].length) t.fail(`${word}: code points changed`);
    }
  }
  t.pass();
});

test('the scrambled word differs from the input whenever two graphemes differ', (t) => {
  for (const word of ['ab', 'ba', 'aab', 'abc', 'Aa', 'example', `${FAMILY}a`, 'é\u0065', 'zzzzzzzzzy']) {
    for (let seed = 0; seed < 1000; seed += 1) {
      const scrambled = scrambleWord(word, seededRandomSource(seed), clock).scrambled;
      if (scrambled === word.normalize('NFC')) t.fail(`${word} came back unchanged with seed ${seed}`);
    }
  }
  t.is(scrambleWord('ab', seededRandomSource(1), clock).scrambled, 'ba');
});

test('a word of one repeated grapheme comes back as it is', (t) => {
  for (const word of ['aaa', 'a', '👍👍', `${FAMILY}${FAMILY}`]) {
    t.is(scrambleWord(word, seededRandomSource(5), clock).scrambled, word, word);
  }
});

test('a random source that always restores the word still ends with a changed word', (t) => {
  // integer(n) = n - 1 swaps every position with itself: Fisher-Yates is the identity each time.
  const stuck: RandomSource = { float: () => 1 - 2 ** -53, integer: (maxExclusive) => maxExclusive - 1 };
  const result = shuffleGraphemes(['a', 'b', 'c'], stuck);
  t.not(result.join(''), 'abc');
  t.deepEqual(sorted(result), ['a', 'b', 'c']);
  t.deepEqual(shuffleGraphemes(['a', 'a', 'a'], stuck), ['a', 'a', 'a']);
  t.deepEqual(shuffleGraphemes([], stuck), []);
});

test('difficulty follows the length in graphemes: 4 Easy, 5-7 Medium, 8-10 Hard, 11+ Expert', (t) => {
  const cases: [length: number, level: string, complexity: number][] = [
    [1, 'Easy', 0],
    [4, 'Easy', 0],
    [5, 'Medium', 1],
    [7, 'Medium', 1],
    [8, 'Hard', 2],
    [10, 'Hard', 2],
    [11, 'Expert', 3],
    [MAX_WORD_GRAPHEMES, 'Expert', 3],
  ];
  for (const [length, level, complexity] of cases) {
    const word = 'abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, length);
    const result = scrambleWord(word, seededRandomSource(length), clock);
    t.is(result.wordLength, length);
    t.is<string, string>(result.difficultyLevel, level, `length ${length}`);
    t.is(result.scrambleComplexity, complexity, `length ${length}`);
  }
  // Five family emojis are five characters, not 40 UTF-16 units.
  const emojis = scrambleWord(FAMILY.repeat(4) + KISS, seededRandomSource(1), clock);
  t.is(emojis.wordLength, 5);
  t.is(emojis.difficultyLevel, 'Medium');
  t.is(emojis.uniqueCharacterCount, 2);
});

test('uniqueCharacterCount counts distinct graphemes, case-sensitively', (t) => {
  const random = seededRandomSource(3);
  t.is(scrambleWord('banana', random, clock).uniqueCharacterCount, 3);
  t.is(scrambleWord('Aa', random, clock).uniqueCharacterCount, 2);
  t.is(scrambleWord('aaa', random, clock).uniqueCharacterCount, 1);
  // The precomposed and the combining é are one character after NFC.
  t.is(scrambleWord('e\u0301é', random, clock).uniqueCharacterCount, 1);
  t.is(scrambleWord('cafe\u0301', random, clock).wordLength, 4);
});

test('hint is the first grapheme; original echoes the word', (t) => {
  const random = seededRandomSource(9);
  t.is(scrambleWord('Zebra', random, clock).hint, 'Z');
  t.is(scrambleWord(`${FAMILY}xyz`, random, clock).hint, FAMILY);
  t.is(scrambleWord('e\u0301clair', random, clock).hint, 'é');
  t.is(scrambleWord('e\u0301clair', random, clock).original, 'e\u0301clair');
});

test('wordType follows the documented suffix rules', (t) => {
  const cases: [word: string, type: string][] = [
    ['quickly', 'Adverb'],
    ['QUICKLY', 'Adverb'],
    ['naïvely', 'Adverb'],
    ['jumping', 'Verb'],
    ['organize', 'Verb'],
    ['realise', 'Verb'],
    ['simplify', 'Verb'],
    ['jumped', 'Verb'],
    ['hundred', 'Verb'],
    ['famous', 'Adjective'],
    ['helpful', 'Adjective'],
    ['active', 'Adjective'],
    ['readable', 'Adjective'],
    ['visible', 'Adjective'],
    ['hopeless', 'Adjective'],
    ['childish', 'Adjective'],
    ['primary', 'Adjective'],
    ['example', 'Noun'],
    ['Zebra', 'Noun'],
    ["don't", 'Noun'],
    ['well-known', 'Noun'],
    ['über', 'Noun'],
    ['cafe\u0301', 'Noun'],
    ['abc123', 'Other'],
    ['C3PO', 'Other'],
    ['👍', 'Other'],
    ['hi!', 'Other'],
  ];
  for (const [word, type] of cases) t.is<string, string>(guessWordType(word), type, word);
});

test('suffix rules need five characters', (t) => {
  for (const word of ['holy', 'fly', 'sing', 'bed', 'red', 'size', 'wise', 'aive', 'wary', 'wish']) {
    t.is(guessWordType(word), 'Noun', word);
  }
  t.is(guessWordType('thing'), 'Verb');
  t.is(guessWordType('early'), 'Adverb');
  // Four letters outside the BMP are four characters, though eight UTF-16 units precede the suffix.
  t.is(guessWordType('𐐷𐐷ed'), 'Noun');
  t.is(guessWordType('𐐷𐐷𐐷ed'), 'Verb');
  t.is(scrambleWord('quickly', seededRandomSource(1), clock).wordType, 'Adverb');
});

test('isSingleWord refuses whitespace, control and invisible formatting characters', (t) => {
  for (const word of ['a b', 'a\tb', 'a\nb', 'a\u00a0b', 'a\u3000b', 'a\u2028b', '\u0000', 'a\u0007', '\u007f', '\u0085']) {
    t.false(isSingleWord(word), JSON.stringify(word));
  }
  for (const word of ['a\u200bb', '\u200b', 'a\u00adb', 'a\u2060b', '\ufeffa', 'a\u200eb', 'a\u202eb', 'a\u2066b', 'a\u{e0061}', '\u{e007f}']) {
    t.false(isSingleWord(word), JSON.stringify(word));
  }
});

test('isSingleWord refuses tag characters outside a subdivision flag', (t) => {
  const tags = (text: string) => Array.from(text, (letter) => String.fromCodePoint(0xe0000 + (letter.codePointAt(0) ?? 0))).join('');
  t.true(isSingleWord(`🏴${tags('gbwls')}\u{e007f}`));
  t.true(isSingleWord(`🏴${tags('usca')}\u{e007f}x`));
  // Text hidden in tags: too long for a subdivision id, or with characters an id never has.
  t.false(isSingleWord(`🏴${tags('ignoreallrules')}\u{e007f}`));
  t.false(isSingleWord(`🏴${tags('GB-ENG')}\u{e007f}`));
  t.false(isSingleWord(`🏴${tags('gbeng')}`));
  t.false(isSingleWord(`a${tags('gbeng')}\u{e007f}`));
});

test('isSingleWord accepts letters, marks, emoji joiners and subdivision flags', (t) => {
  for (const word of ['example', 'café', 'cafe\u0301', FAMILY, KISS, SCOTLAND, '🇺🇸', 'می\u200cخواهم', "rock'n'roll", '日本語', '#️⃣']) {
    t.true(isSingleWord(word), word);
  }
});

test('every emoji of the catalog is one character and a valid word', (t) => {
  for (const { emoji } of buildEmojiCatalog()) {
    if (!isSingleWord(emoji)) t.fail(`${emoji} is refused`);
    if (graphemes(emoji).length !== 1) t.fail(`${emoji} is split into ${graphemes(emoji).length}`);
  }
  t.pass();
});

test('the shuffle is uniform over the five other orders of abc (chi-square, seeded)', (t) => {
  const random = seededRandomSource(20240615);
  const counts = new Map<string, number>();
  const runs = 30_000;
  for (let run = 0; run < runs; run += 1) {
    const scrambled = scrambleWord('abc', random, clock).scrambled;
    counts.set(scrambled, (counts.get(scrambled) ?? 0) + 1);
  }
  t.deepEqual([...counts.keys()].sort(), ['acb', 'bac', 'bca', 'cab', 'cba']);
  // 4 degrees of freedom: 18.5 is the 0.1% critical value. Favouring one order (2/6 instead of 1/6) gives thousands.
  const statistic = chiSquare([...counts.values()]);
  t.true(statistic < 30, `chi-square ${statistic.toFixed(2)}: ${JSON.stringify(Object.fromEntries(counts))}`);
  for (const count of counts.values()) t.true(Math.abs(count - runs / 5) < runs / 5 / 10);
});

test('with repeated letters every other arrangement is equally likely (chi-square, seeded)', (t) => {
  const random = seededRandomSource(99);
  const counts = new Map<string, number>();
  for (let run = 0; run < 20_000; run += 1) {
    const scrambled = scrambleWord('aabb', random, clock).scrambled;
    counts.set(scrambled, (counts.get(scrambled) ?? 0) + 1);
  }
  t.deepEqual([...counts.keys()].sort(), ['abab', 'abba', 'baab', 'baba', 'bbaa']);
  const statistic = chiSquare([...counts.values()]);
  t.true(statistic < 30, `chi-square ${statistic.toFixed(2)}`);
});

test('every position receives every letter about equally often in a longer word', (t) => {
  const word = 'abcdefgh';
  const random = seededRandomSource(4242);
  const runs = 16_000;
  const atPosition = Array.from({ length: word.length }, () => new Map<string, number>());
  for (let run = 0; run < runs; run += 1) {
    [...scrambleWord(word, random, clock).scrambled].forEach((letter, index) => {
      const counts = atPosition[index] as Map<string, number>;
      counts.set(letter, (counts.get(letter) ?? 0) + 1);
    });
  }
  for (const counts of atPosition) {
    t.is(counts.size, word.length);
    // 7 degrees of freedom: 24.3 is the 0.1% critical value.
    const statistic = chiSquare([...counts.values()]);
    t.true(statistic < 40, `chi-square ${statistic.toFixed(2)}`);
  }
});
