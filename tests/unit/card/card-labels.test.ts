/**
 * `labels` replaces the card's fixed words (LEVEL, RANK, XP, BOT, the welcome headline): drawn in
 * their place (capitals in cased scripts), cleaned like names, cut to fit when long, refused with
 * a clear message when too long or of the wrong shape, and said by the alt text.
 */
import { CARD_LIMITS, cardOptionsSchema, type CardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { cardAltText, renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { compareImages, decodePng } from '../../support/card/golden-images.ts';

const RANK = { currentXp: 1234, requiredXp: 5000, level: 12, rank: 1, barColor: '#5865f2', levelColor: '#ffffff', autoColorRank: true };
const card = (options: CardOptions, profile: Partial<CardInput['profile']> = {}): CardInput => ({ profile: { userId: '302050872383242240', username: 'ada', ...profile }, options });

const textsOf = async (input: CardInput) => Object.fromEntries((await renderCard(input)).texts.map((text) => [text.role, text.text]));

async function differentPixels(a: CardInput, b: CardInput): Promise<number> {
  const [first, second] = await Promise.all([renderCard(a), renderCard(b)]);
  return compareImages(decodePng(first.png), decodePng(second.png)).differentPixels;
}

const problems = (input: unknown) => {
  const result = cardOptionsSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

test('labels replace LEVEL, RANK and XP in the rank row, in capitals where the script has them', async (t) => {
  const defaults = await textsOf(card({ rankData: RANK }));
  t.like(defaults, { 'level label': 'LEVEL', 'rank label': 'RANK', xp: '1.2K / 5K XP' });
  const french = card({ rankData: RANK, labels: { level: 'Niveau', rank: 'Rang', xp: 'pts' } });
  t.like(await textsOf(french), { 'level label': 'NIVEAU', 'rank label': 'RANG', xp: '1.2K / 5K pts' });
  t.like(await textsOf(card({ rankData: RANK, labels: { level: 'Уровень', rank: 'Θέση' } })), { 'level label': 'УРОВЕНЬ', 'rank label': 'ΘΕΣΗ' }, 'Greek capitals without accents');
  t.like(await textsOf(card({ rankData: RANK, labels: { level: 'レベル', rank: '순위' } })), { 'level label': 'レベル', 'rank label': '순위' }, 'scripts without capitals as written');
  t.true((await differentPixels(french, card({ rankData: RANK }))) > 100);
});

test('labels.bot replaces the bot chip word; labels.welcome is the default welcome headline, and headline still wins', async (t) => {
  const bot = { bot: true, badges: ['verified_bot' as const] };
  t.true((await differentPixels(card({ labels: { bot: 'Robot' } }, bot), card({}, bot))) > 50);
  t.is(await differentPixels(card({ labels: { bot: 'Bot' } }, bot), card({}, bot)), 0, 'the default word, given, is the same card');
  const welcome = (options: CardOptions) => card({ layout: 'welcome', ...options });
  t.like(await textsOf(welcome({ labels: { welcome: 'Willkommen' } })), { headline: 'WILLKOMMEN' });
  t.like(await textsOf(welcome({ labels: { welcome: 'Willkommen' }, headline: 'Goodbye' })), { headline: 'GOODBYE' });
  t.true((await differentPixels(welcome({ labels: { welcome: 'Willkommen' } }), welcome({}))) > 500);
});

test('labels are cleaned like names; one with nothing visible keeps the default word', async (t) => {
  const texts = await textsOf(card({ rankData: RANK, labels: { level: 'Ni\u202eveau\n', rank: '\u200b \u2800', xp: '\u0000EP' } }));
  t.like(texts, { 'level label': 'NIVEAU', 'rank label': 'RANK', xp: '1.2K / 5K EP' });
});

test('long labels are cut to share the row: the level and rank words end with an ellipsis and nothing overlaps', async (t) => {
  const long = 'W'.repeat(CARD_LIMITS.maxLabelLength);
  const rendered = await renderCard(card({ rankData: { ...RANK, rank: 123_456, level: 9999 }, labels: { level: long, rank: long, xp: long } }));
  const row = ['level label', 'level', 'rank label', 'rank', 'xp'].map((role) => rendered.texts.find((text) => text.role === role)!);
  t.true(row[0]!.text.endsWith('…') && row[2]!.text.endsWith('…'), `${row[0]!.text} ${row[2]!.text}`);
  t.true(row[4]!.text.endsWith('…'), 'the XP text is cut too');
  for (const [left, right] of row.slice(0, -1).map((text, index) => [text, row[index + 1]!] as const)) t.true(left.x + left.width <= right.x, `${left.role} ends before ${right.role}`);
  t.true(row[4]!.x + row[4]!.width <= 856 + 0.5, 'the XP text ends at the column edge');
});

test('the alt text says the labels for level, rank and XP, and the welcome label as the headline', (t) => {
  t.is(cardAltText(card({ rankData: RANK, labels: { level: 'Niveau', rank: 'Rang', xp: 'EP', bot: 'Robot' } })), 'Profile card for ada (@ada): Niveau 12, Rang #1, 1.2K of 5K EP.');
  t.is(cardAltText(card({ rankData: RANK })), 'Profile card for ada (@ada): level 12, rank #1, 1.2K of 5K XP.', 'default words as a sentence says them');
  t.is(cardAltText(card({ rankData: RANK, labels: { level: '\u200b' } })), 'Profile card for ada (@ada): level 12, rank #1, 1.2K of 5K XP.');
  t.is(cardAltText(card({ layout: 'welcome', labels: { welcome: 'Bienvenue' } })), 'Welcome card for ada (@ada): “Bienvenue”.');
});

test('overlong, unknown or malformed labels are refused naming the label and the limit', (t) => {
  const max = CARD_LIMITS.maxLabelLength;
  t.deepEqual(problems({ labels: { level: 'x'.repeat(max) } }), []);
  t.deepEqual(problems({ labels: { level: 'x'.repeat(max + 1) } }), [`labels.level: must be at most ${max} characters`]);
  t.deepEqual(problems({ labels: { welcome: 'x'.repeat(CARD_LIMITS.maxHeadlineLength + 1) } }), [`labels.welcome: must be at most ${CARD_LIMITS.maxHeadlineLength} characters`]);
  t.deepEqual(problems({ labels: { xp: 5 } }), ['labels.xp: must be text']);
  t.deepEqual(problems({ labels: 'Niveau' }), ['labels: must be an object of words: level, rank, xp, bot, welcome, joined']);
  t.deepEqual(problems({ labels: ['LEVEL'] }), ['labels: must be an object of words: level, rank, xp, bot, welcome, joined']);
  t.is(problems({ labels: { levl: 'Niveau' } }).length, 1);
  t.regex(problems({ labels: { levl: 'Niveau' } })[0] ?? '', /^labels: .*levl/);
  t.deepEqual(problems(JSON.parse('{"labels": {"__proto__": {"level": "x"}}}')).length, 1, 'a __proto__ key from JSON is an unknown label');
});

test('the creation date is labelled: "Joined Discord" before it (labels.joined), none with a customDate or in the welcome layout', async (t) => {
  const plain = await renderCard(card({}));
  const label = plain.texts.find((text) => text.role === 'date label');
  const date = plain.texts.find((text) => text.role === 'date');
  t.is(label?.text, 'Joined Discord');
  t.is(date?.text, 'Apr 13, 2017');
  t.true(label!.x + label!.width < date!.x, 'the label ends before the date');
  t.true(label!.style.size >= 25, 'the type scale\'s small size');
  t.like(await textsOf(card({ labels: { joined: 'Auf Discord seit' }, localDateType: 'de' })), { 'date label': 'Auf Discord seit', date: '13.04.2017' });
  const custom = await textsOf(card({ customDate: 'Joined Nov 22, 2026' }));
  t.is(custom['date label'], undefined);
  t.is(custom.date, 'Joined Nov 22, 2026');
  t.is((await textsOf(card({ layout: 'welcome' })))['date label'], undefined);
  t.deepEqual(problems({ labels: { joined: 'x'.repeat(CARD_LIMITS.maxLabelLength + 1) } }), [`labels.joined: must be at most ${CARD_LIMITS.maxLabelLength} characters`]);
});
