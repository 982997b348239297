/**
 * A welcome card never fails, nor overflows, because of a long name (issue 30, item 3): the name
 * and the headline fit by measuring (shrink to the layout's smallest size, then "…"), the limits
 * that remain are far above Discord's 32-character names, and `{name}` in the headline is the
 * drawn name.
 */
import { CARD_LIMITS, cardOptionsSchema, DISCORD_MAX_NAME_LENGTH, type CardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { sampleAvatarPng } from '../../../packages/card/samples/sample-images.ts';
import { displayPx, MIN_DISPLAY_PX } from '../../../packages/card/src/layout/type-scale.ts';
import { WELCOME_HEADLINE, WELCOME_NAME, WELCOME_TEXT, WELCOME_TEXT_COLUMN } from '../../../packages/card/src/layout/welcome-layout.ts';
import { cardAltText } from '../../../packages/card/src/text/alt-text.ts';
import { compareImages, decodePng } from '../../support/card/golden-images.ts';

/** 80 characters with spaces, as a long display name from a bridge or a nickname with a title looks. */
const LONG_NAME = 'Wilhelmina Konstantinopoulou-Vanderbilt the Third of Greater Manchestershireland'.slice(0, 80);
const PROFILE: CardInput['profile'] = { userId: '175928847299117063', username: 'wilhelmina', displayName: LONG_NAME, avatar: sampleAvatarPng() };

const welcome = (options: CardOptions): CardInput => ({ profile: PROFILE, options: cardOptionsSchema.parse({ layout: 'welcome', ...options }) });

test('the limits are far above any Discord name: an 80-character name and the README headline around it validate', (t) => {
  t.is(LONG_NAME.length, 80);
  t.true(CARD_LIMITS.maxUsernameLength >= 4 * DISCORD_MAX_NAME_LENGTH);
  t.true(CARD_LIMITS.maxHeadlineLength >= CARD_LIMITS.maxUsernameLength + 'Welcome, !'.length);
  const body = { layout: 'welcome', customUsername: LONG_NAME, headline: `Welcome, ${LONG_NAME}!`, message: `${LONG_NAME} is member #1,234` };
  t.true(cardOptionsSchema.safeParse(body).success);
  t.false(cardOptionsSchema.safeParse({ ...body, headline: 'x'.repeat(CARD_LIMITS.maxHeadlineLength + 1) }).success, 'the limit still holds');
});

for (const [label, options] of [
  ['an 80-character name and headline', { customUsername: LONG_NAME, headline: `Welcome, ${LONG_NAME}!` }],
  ['the longest name and headline the limits allow', { customUsername: 'W'.repeat(CARD_LIMITS.maxUsernameLength), headline: 'W'.repeat(CARD_LIMITS.maxHeadlineLength) }],
  ['an 80-character display name through {name}', { headline: 'Welcome, {name}!', message: 'You are member #1,234' }],
] as const) {
  test(`${label}: every text stays inside the column and the block's room, at or above the layout's smallest sizes`, async (t) => {
    const card = await renderCard(welcome(options));
    const column = { left: WELCOME_TEXT_COLUMN.left, right: WELCOME_TEXT_COLUMN.right };
    for (const run of card.texts) {
      if (run.role === 'date') continue;
      t.true(run.x >= column.left - 1 && run.x + run.width <= column.right + 1, `${run.role} from ${run.x} to ${run.x + run.width}`);
      t.true(run.baseline - run.style.size * 0.73 >= WELCOME_TEXT.top - 1 && run.baseline <= WELCOME_TEXT.bottom, `${run.role} at ${run.baseline}`);
      t.true(displayPx(run.style.size) >= MIN_DISPLAY_PX.text, `${run.role} at ${run.style.size} px`);
    }
    const name = card.texts.find((run) => run.role === 'name');
    const headline = card.texts.find((run) => run.role === 'headline');
    t.truthy(name);
    t.truthy(headline);
    t.true(name!.style.size >= WELCOME_NAME.minSize && displayPx(name!.style.size) >= MIN_DISPLAY_PX.name, `name at ${name!.style.size} px`);
    t.true(headline!.style.size >= WELCOME_HEADLINE.minSize, `headline at ${headline!.style.size} px`);
    t.true(name!.text.endsWith('…'), 'a name too long at the smallest size is cut');
    t.true(headline!.text.endsWith('…'), 'so is the headline');
  });
}

test('{name} in the headline is the drawn name, in the headline\'s capitals; doubled braces are one literal brace', async (t) => {
  const named = await renderCard({ profile: { ...PROFILE, displayName: 'Ada' }, options: { layout: 'welcome', headline: 'Hi {name}!' } });
  t.is(named.texts.find((run) => run.role === 'headline')?.text, 'HI ADA!');
  const custom = await renderCard({ profile: PROFILE, options: { layout: 'welcome', customUsername: 'Captain', headline: '{name}, {{name}} {x} }}{' } });
  t.is(custom.texts.find((run) => run.role === 'headline')?.text, 'CAPTAIN, {NAME} {X} }{');
  const written = await renderCard({ profile: { ...PROFILE, displayName: 'Ada' }, options: { layout: 'welcome', headline: 'Hi Ada!' } });
  t.is(compareImages(decodePng(named.png), decodePng(written.png)).differentPixels, 0, 'the same picture as the name written out');
  t.is(cardAltText({ profile: { ...PROFILE, displayName: 'Ada' }, options: { layout: 'welcome', headline: 'Hi {name}!' } }), 'Welcome card for Ada (@wilhelmina): “Hi Ada!”.');
  const byLabel = await renderCard({ profile: { ...PROFILE, displayName: 'Ada' }, options: { layout: 'welcome', labels: { welcome: 'Bienvenue {name}' } } });
  t.is(byLabel.texts.find((run) => run.role === 'headline')?.text, 'BIENVENUE ADA');
});
