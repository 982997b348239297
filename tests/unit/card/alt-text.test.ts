import { cardAltText, type CardInput } from '@utility-api/card';
import { ALT_TEXT_MAX_LENGTH, CARD_LIMITS, type CardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import fc from 'fast-check';

const PROFILE = { userId: '302050872383242240', username: 'ada.codes', displayName: 'Ada' } as const;
const card = (options: CardOptions, profile: CardInput['profile'] = PROFILE): CardInput => ({ profile, options });
const RANK = { currentXp: 1234, requiredXp: 5000, level: 12, rank: 1, barColor: '#5865F2', levelColor: '#FFFFFF', autoColorRank: true };

test('the profile card names the user, the tag, the rank block and the status, numbers written as the card writes them', (t) => {
  t.is(cardAltText(card({ rankData: RANK, presenceStatus: 'online' })), 'Profile card for Ada (@ada.codes): level 12, rank #1, 1.2K of 5K XP, online.');
  t.is(cardAltText(card({ rankData: { ...RANK, currentXp: 1999, requiredXp: 2_500_000, level: 1_234_567, rank: 45 } })), 'Profile card for Ada (@ada.codes): level 1.2M, rank #45, 1.9K of 2.5M XP.');
  t.is(cardAltText(card({})), 'Profile card for Ada (@ada.codes).');
  t.is(cardAltText(card({ customSubtitle: 'Moderator', presenceStatus: 'idle' })), 'Profile card for Ada (@ada.codes): “Moderator”, idle.');
});

test('the same defaults as the card: custom name and tag first, no tag line for an empty tag or an unknown username', (t) => {
  t.is(cardAltText(card({ customUsername: 'Countess', customTag: 'Analyst' })), 'Profile card for Countess (Analyst).');
  t.is(cardAltText(card({ customTag: '' })), 'Profile card for Ada.');
  t.is(cardAltText(card({}, { userId: PROFILE.userId })), 'Profile card for a Discord user.');
  t.is(cardAltText(card({}, { userId: PROFILE.userId, username: 'ada.codes' })), 'Profile card for ada.codes (@ada.codes).');
});

test('the welcome card says its headline and message and leaves out the rank block it does not draw', (t) => {
  t.is(cardAltText(card({ layout: 'welcome', message: 'You are member #1,234', rankData: RANK, presenceStatus: 'dnd' })), 'Welcome card for Ada (@ada.codes): “Welcome”, “You are member #1,234”, do not disturb.');
  t.is(cardAltText(card({ layout: 'welcome', headline: 'Goodbye' })), 'Welcome card for Ada (@ada.codes): “Goodbye”.');
  t.is(cardAltText(card({ layout: 'welcome', headline: ' \u200b ' })), 'Welcome card for Ada (@ada.codes).', 'a blank headline hides the line');
  t.is(cardAltText(card({ headline: 'Goodbye', message: 'ignored' })), 'Profile card for Ada (@ada.codes).', 'the profile layout draws neither');
});

test('text is cleaned as the card cleans it: one line, no controls or bidi overrides', (t) => {
  t.is(cardAltText(card({ customUsername: 'A\nda\u202e\u0007', customTag: '\tat home' })), 'Profile card for A da (at home).');
  const cleaned = cardAltText(card({ customUsername: 'x\u202ey\r\nz', customSubtitle: 'a\u0000b' }));
  t.false([...cleaned].some((character) => character.charCodeAt(0) < 0x20 || (character >= '\u202a' && character <= '\u202e')), cleaned);
});

test(`at most ${ALT_TEXT_MAX_LENGTH} characters, cut between graphemes with an ellipsis`, (t) => {
  // The body's limits keep a real card's sentence far below the cap; texts past them (the renderer
  // does not re-check lengths) show the cap holds. Family emoji are 8 UTF-16 units each.
  const family = '👩‍👩‍👧';
  const text = cardAltText(card({ layout: 'welcome', customUsername: family.repeat(200), message: 'never reached' }));
  t.true(text.length <= ALT_TEXT_MAX_LENGTH, `${text.length}`);
  t.true(text.length > ALT_TEXT_MAX_LENGTH - family.length - 1, `${text.length}`);
  t.regex(text, /^Welcome card for (👩‍👩‍👧)+…$/u, 'whole families only, then the ellipsis');
  const longest = cardAltText(
    card({
      layout: 'welcome',
      customUsername: 'x'.repeat(CARD_LIMITS.maxUsernameLength),
      customTag: 'x'.repeat(CARD_LIMITS.maxTagLength),
      customSubtitle: 'x'.repeat(CARD_LIMITS.maxSubtitleLength),
      headline: 'x'.repeat(CARD_LIMITS.maxHeadlineLength),
      message: 'x'.repeat(CARD_LIMITS.maxMessageLength),
      presenceStatus: 'offline',
    }),
  );
  // Every text at its limit (a name 4x Discord's longest) still leaves the sentence whole.
  t.true(longest.length < ALT_TEXT_MAX_LENGTH, `${longest.length}`);
  t.false(longest.endsWith('…'));
});

test('what the card draws as nothing is not said: bidi marks, default-ignorable and blank characters go, emoji sequences stay whole', (t) => {
  t.is(cardAltText(card({ customUsername: 'A\u200Eda\u200B\u2060\u00AD\u3164\u{E0041}', customTag: '\u061C\u200Fat\uFEFF home\u2800' })), 'Profile card for Ada (at home).');
  const emoji = '👩‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿 ❤️ 1️⃣ 👍🏽';
  t.is(cardAltText(card({ customUsername: emoji })), `Profile card for ${emoji} (@ada.codes).`);
  t.is(cardAltText(card({ customUsername: 'a\u200Db\uFE0F' })), 'Profile card for ab (@ada.codes).', 'a joiner or selector outside an emoji goes');
});

test('a lone surrogate in a text or in the Discord profile is U+FFFD', (t) => {
  t.is(cardAltText(card({ customTag: 'a\uD800b' }, { ...PROFILE, displayName: '\uDC00Ada' })), 'Profile card for \uFFFDAda (a\uFFFDb).');
});

test('property: any text gives well-formed alt text without bidi, default-ignorable characters outside emoji, or more than the cap', (t) => {
  const piece = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.constantFrom('\u200D', '\uFE0F', '\u202E', '\u200E', '\u{E0067}', '\u3164', '👩‍👩‍👧', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '\u0301'),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  );
  const text = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(''));
  const options = fc.record(
    { customUsername: text, customTag: text, customSubtitle: text, headline: text, message: text, layout: fc.constantFrom('profile' as const, 'welcome' as const) },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(options, text, (chosen, displayName) => {
      const altText = cardAltText(card(chosen, { ...PROFILE, displayName }));
      const outsideEmoji = altText.replace(/\p{RGI_Emoji}/gv, '');
      return altText.isWellFormed() && altText.length <= ALT_TEXT_MAX_LENGTH && !/[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u.test(outsideEmoji);
    }),
    { numRuns: 1000 },
  );
  t.pass();
});
