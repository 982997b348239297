import test, { type ExecutionContext } from 'ava';
import { idOnlyProfile } from '@utility-api/discord-users';
import type { PNG } from 'pngjs';
import { renderCard } from '../../../packages/card/src/index.ts';
import type { CardInput, CardProfile } from '../../../packages/card/src/profile/card-profile.ts';
import { buildScene } from '../../../packages/card/src/scene.ts';
import { cleanText, isInvisible, spokenText, visibleText } from '../../../packages/card/src/text/clean-text.ts';
import { decodePng } from '../../support/card/golden-images.ts';

const PROFILE: CardProfile = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada' };

/** Marks above the letter (combining class 230) that compose with no Latin capital, so NFC keeps them apart. */
const MARKS_ABOVE = '\u030D\u030E\u0310';
const zalgo = (base: string, count: number) => base + Array.from({ length: count }, (_, index) => MARKS_ABOVE[index % 3]).join('');

// --- The cleaner on its own -----------------------------------------------------------------------

test('every line break, tab and paragraph separator becomes one space', (t) => {
  for (const separator of ['\n', '\r', '\r\n', '\t', '\v', '\f', '\u0085', '\u2028', '\u2029']) {
    t.is(cleanText(`Ada${separator}Lovelace`), 'Ada Lovelace', JSON.stringify(separator));
  }
});

test('a run of breaks with the spaces around it is one space; spaces alone are left as they are', (t) => {
  t.is(cleanText('Ada \r\n\t \u2028 Lovelace'), 'Ada Lovelace');
  t.is(cleanText('Ada\n\n\nLovelace'), 'Ada Lovelace');
  t.is(cleanText('\n  Ada\t'), 'Ada');
  t.is(cleanText('Ada  Lovelace'), 'Ada  Lovelace');
});

test('other C0 and C1 controls are removed', (t) => {
  t.is(cleanText('A\u0000d\u001Ba\u007F\u0080\u009F'), 'Ada');
  t.is(cleanText('\u0007Ada\u0008'), 'Ada');
});

test('bidi embeddings, overrides and isolates are removed; LRM, RLM and ALM stay', (t) => {
  t.is(cleanText('@\u202Enimda'), '@nimda');
  for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
    t.is(cleanText(`a${control}b`), 'ab', control.codePointAt(0)?.toString(16));
  }
  const arabicDate = new Intl.DateTimeFormat('ar', { dateStyle: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2023, 2, 10)));
  t.regex(arabicDate, /\u200F|\u061C/, 'the Arabic date carries direction marks');
  t.is(cleanText(arabicDate), arabicDate);
  t.is(cleanText('a\u200Eb\u200Fc\u061Cd'), 'a\u200Eb\u200Fc\u061Cd');
});

test('text is composed to NFC, also across a removed control', (t) => {
  t.is(cleanText('Nguye\u0302\u0303n'), 'Nguy\u1EC5n');
  t.is(cleanText('e\u0000\u0301'), '\u00E9');
});

test('at most three combining marks stay in a row, wherever the run starts', (t) => {
  t.is(cleanText(zalgo('Z', 30)), zalgo('Z', 3));
  t.is(cleanText(`a${zalgo('Z', 12)}b${zalgo('c', 4)}`), `a${zalgo('Z', 3)}b${zalgo('c', 3)}`);
  // No base at all: the leading run is capped the same way.
  t.is(cleanText(zalgo('', 9)), zalgo('', 3));
  // An enclosing mark (Me) counts too.
  t.is(cleanText(`O${'\u20DD'.repeat(6)}`), `O${'\u20DD'.repeat(3)}`);
});

test('zero-width joiners between marks do not reset the count, and are kept', (t) => {
  const cleaned = cleanText(`Z${'\u0310\u200D'.repeat(10)}`);
  t.is([...cleaned].filter((character) => character === '\u0310').length, 3);
  t.is([...cleaned].filter((character) => character === '\u200D').length, 10);
});

test('real scripts keep every mark: Vietnamese, Thai, Arabic, Devanagari, Hebrew with niqqud, Tibetan, Myanmar', (t) => {
  const samples = {
    vietnamese: 'Nguyễn Thị Ngọc Ánh Trường Phượng',
    vietnameseDecomposed: 'Nguyễn Thị Ngọc Ánh'.normalize('NFD'),
    thai: 'กิ่ง น้ำ ที่ สุ่ม เปี๊ยะ',
    arabic: 'مُحَمَّدٌ',
    devanagari: 'हैं ज़िंदगी फ़ें क़ुर्बानी ज़्यादा',
    hebrew: 'שָּׁלוֹם שַּׁבָּת בְּרֵאשִׁית יִשְׂרָאֵל',
    tibetan: 'བསྒྲུབས་ སྒྲོལ་མ་ ཧཱུྃ',
    myanmar: 'ကျွန်ုပ် မှုံ ရွှေ',
  };
  for (const [script, text] of Object.entries(samples)) t.is(cleanText(text), text.normalize('NFC'), script);
});

test('emoji sequences keep their joiners, variation selectors, keycaps, tags and skin tones', (t) => {
  const emoji = '👨\u200D👩\u200D👧 1\uFE0F\u20E3 🏳\uFE0F\u200D🌈 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} 👍🏽 ❤\uFE0F';
  t.is(cleanText(emoji), emoji);
  t.is(visibleText(emoji), emoji);
});

test('a lone surrogate becomes U+FFFD, high or low, alone or reversed; a real pair stays', (t) => {
  t.is(cleanText('a\uD800b'), 'a\uFFFDb');
  t.is(cleanText('\uDC00\uD800'), '\uFFFD\uFFFD');
  t.is(cleanText('\uD83D\uDE00'), '😀');
  t.true(cleanText('x\uDBFF').isWellFormed());
});

test('spoken text leaves out every bidi control and default-ignorable or blank character, except inside emoji sequences', (t) => {
  t.is(spokenText('a\u200Eb\u200Fc\u061Cd\u202Ae\u2066f'), 'abcdef', 'direction marks too: the sentence is not reordered by them');
  t.is(spokenText('A\u200Bd\u2060a\u00AD\uFEFF\u3164\u115F\u2800\u{1D159}\uFFF9\u{E0020}\u034F'), 'Ada');
  const emoji = '👨\u200D👩\u200D👧 1\uFE0F\u20E3 🏳\uFE0F\u200D🌈 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} 👍🏽 ❤\uFE0F';
  t.is(spokenText(emoji), emoji);
  t.is(spokenText('👩\u200D'), '👩', 'a joiner that joins nothing goes');
  t.is(spokenText('Ada Lovelace'), 'Ada Lovelace', 'visible text and spaces are untouched');
});

test('text with nothing visible counts as absent', (t) => {
  const invisible = ['', ' ', '\n\t', '\u00A0\u3000', '\u200B', '\u200D\uFE0F', '\u3164', '\uFFA0', '\u115F\u1160', '\u2800', '\u{1D159}', '\u2060\u00AD', '\u202E', '\u200B \u3164 \u2800'];
  for (const text of invisible) {
    t.true(isInvisible(cleanText(text)), JSON.stringify(text));
    t.is(visibleText(text), undefined, JSON.stringify(text));
  }
  t.is(visibleText(undefined), undefined);
  t.is(visibleText('\u200Ba\u200B'), '\u200Ba\u200B', 'visible text keeps its invisible characters');
  t.is(visibleText(' \u3164x '), '\u3164x');
  t.false(isInvisible('\u0301'), 'a lone mark still draws');
});

// --- What the card draws ------------------------------------------------------------------------

async function draw(options: CardInput['options'], profile: CardProfile = PROFILE): Promise<PNG> {
  return decodePng((await renderCard({ profile, options })).png);
}

/** Pixels whose RGBA differ at all: an exact comparison, no color threshold. */
function differentPixels(actual: PNG, expected: PNG, rows: { from: number; to: number } = { from: 0, to: expected.height }): number {
  if (actual.width !== expected.width || actual.height !== expected.height) return expected.width * expected.height;
  let count = 0;
  for (let offset = rows.from * expected.width * 4; offset < rows.to * expected.width * 4; offset += 4) {
    if (actual.data.readUInt32BE(offset) !== expected.data.readUInt32BE(offset)) count += 1;
  }
  return count;
}

async function drawsLike(t: ExecutionContext, actual: CardInput['options'], expected: CardInput['options'], profile: CardProfile = PROFILE): Promise<void> {
  const [actualPixels, expectedPixels] = await Promise.all([draw(actual, profile), draw(expected, profile)]);
  t.is(differentPixels(actualPixels, expectedPixels), 0, JSON.stringify(actual));
}

test('the exact comparison sees a one-letter change in the name', async (t) => {
  const [ada, adb] = await Promise.all([draw({ customUsername: 'Ada Lovelace' }), draw({ customUsername: 'Adb Lovelace' })]);
  t.true(differentPixels(ada, adb) > 20);
});

test('a name with a line break, tab, CR, CRLF or line separator draws like the name with a space', async (t) => {
  for (const separator of ['\n', '\t', '\r', '\r\n', '\u2028', ' \n\t ']) {
    await drawsLike(t, { customUsername: `Ada${separator}Lovelace` }, { customUsername: 'Ada Lovelace' });
  }
});

test('a tag and a subtitle with line breaks draw like the same text on one line', async (t) => {
  await drawsLike(t, { customTag: 'first\nsecond', customSubtitle: 'one\r\ntwo\u2029three' }, { customTag: 'first second', customSubtitle: 'one two three' });
});

test('a bidi override draws exactly like the text without it', async (t) => {
  await drawsLike(t, { customTag: '@\u202Enimda' }, { customTag: '@nimda' });
  await drawsLike(t, { customUsername: '\u202Enimda\u202C' }, { customUsername: 'nimda' });
});

test('a Zalgo name draws like the same letter with three marks', async (t) => {
  await drawsLike(t, { customUsername: zalgo('Z', 30) }, { customUsername: zalgo('Z', 3) });
});

test('an all-invisible custom name draws like no custom name', async (t) => {
  await drawsLike(t, { customUsername: '\u200B\u3164\u2800' }, {});
});

test('an invisible display name falls back to the username', async (t) => {
  const blankDisplayName: CardProfile = { ...PROFILE, displayName: '\u3164' };
  const [actual, expected] = await Promise.all([draw({}, blankDisplayName), draw({ customUsername: PROFILE.username ?? '' })]);
  t.is(differentPixels(actual, expected), 0);
});

test('an invisible tag, subtitle or date draws like none given; an empty customTag removes the tag line', async (t) => {
  await drawsLike(t, { customTag: '\u200B \u3164' }, {});
  // Documented before the cleaning rules existed: "" is how a caller asks for no tag line.
  await drawsLike(t, { customTag: '' }, {}, { ...PROFILE, username: undefined });
  await drawsLike(t, { customSubtitle: '\u2800\n' }, {});
  await drawsLike(t, { customDate: '\uFFA0\u200D' }, {});
});

test('without a Discord token the card shows the placeholder name and no tag line', async (t) => {
  const tokenless = idOnlyProfile(PROFILE.userId);
  const scene = await buildScene({ profile: tokenless, options: {} });
  t.is(scene.name, `User ${PROFILE.userId.slice(-4)}`);
  t.is(scene.tag, undefined);
  // The old placeholder, a username, drew the name twice: "User 7063" and "@User 7063".
  const [placeholder, asUsername, blankUsername] = await Promise.all([
    draw({}, tokenless),
    draw({}, { userId: PROFILE.userId, username: `User ${PROFILE.userId.slice(-4)}` }),
    draw({}, { userId: PROFILE.userId, username: ' \u3164', displayName: `User ${PROFILE.userId.slice(-4)}` }),
  ]);
  t.true(differentPixels(placeholder, asUsername) > 100);
  t.is(differentPixels(placeholder, blankUsername), 0);
  // A custom tag still shows.
  t.is((await buildScene({ profile: tokenless, options: { customTag: 'guest' } })).tag, 'guest');
});

test('a two-line name breaks between words, at a smaller size if need be, before it breaks inside one; never before a hyphen', async (t) => {
  const rankData = { currentXp: 1, requiredXp: 5, level: 1, rank: 4, barColor: '#5865f2', levelColor: '#ffffff', autoColorRank: false };
  const linesOf = async (name: string) => (await renderCard({ profile: PROFILE, options: { customUsername: name, rankData } })).texts.filter((text) => text.role.startsWith('name')).map((text) => text.text);
  // Before: "Bartholomew Featherst" / "onehaugh", "Christopher Wolfeschle" / "gelstein", "Alexandria Montgomery" / "-Smythe".
  t.deepEqual(await linesOf('Bartholomew Featherstonehaugh'), ['Bartholomew', 'Featherstonehaugh']);
  t.deepEqual(await linesOf('Christopher Wolfeschlegelstein'), ['Christopher', 'Wolfeschlegelstein']);
  t.deepEqual(await linesOf('Alexandria Montgomery-Smythe'), ['Alexandria', 'Montgomery-Smythe']);
  t.deepEqual(await linesOf('Ada Lovelace Countess of Lovelace'), ['Ada Lovelace Countess', 'of Lovelace']);
  // One word too long for either line is still cut inside it, then ends with "…".
  const single = await linesOf('W'.repeat(40));
  t.is(single.length, 2);
  t.true(single[1]!.endsWith('…'));
});
