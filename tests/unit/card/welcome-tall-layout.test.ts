/**
 * The tall welcome layout (`layout: 'welcome-tall'`, 960x540): its frame, where the avatar and every
 * text go, what gives way when the block is too tall, the same layout at scale 2, and an animated
 * card within the output-pixel cap. Its look is pinned by the welcome-tall-* goldens.
 */
import { cardOptionsSchema, renderJobId, type CardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { cardAltText, renderAnimatedCard, renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { ANIMATION_CAPS } from '../../../packages/card/src/animation/timeline.ts';
import { WELCOME_TALL_AVATAR, WELCOME_TALL_FRAME, WELCOME_TALL_NAME, WELCOME_TALL_TEXT } from '../../../packages/card/src/layout/welcome-tall-layout.ts';
import { movingAvatar } from '../../../packages/card/samples/animated-sources.ts';
import { sampleAvatarPng, sampleLandscapeJpeg } from '../../../packages/card/samples/sample-images.ts';
import { decodePng } from '../../support/card/golden-images.ts';

const PROFILE: CardInput['profile'] = { userId: '412345678901234567', username: 'priya.makes', displayName: 'Priya Raman', themeColors: ['#ff8a5b', '#7c5cff'], avatar: sampleAvatarPng(18) };

const tall = (options: CardOptions = {}, extra: Partial<CardInput> = {}): CardInput => ({ profile: PROFILE, options: { layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234', ...options }, ...extra });

const roles = (texts: { role: string }[]) => texts.map((run) => run.role);

test('a 960x540 card with transparent rounded corners; its own render key', async (t) => {
  const card = await renderCard(tall());
  t.deepEqual([card.width, card.height], [WELCOME_TALL_FRAME.width, WELCOME_TALL_FRAME.height]);
  t.is(card.width / card.height, 16 / 9);
  const png = decodePng(card.png);
  t.is(png.data[3], 0, 'the top left corner is outside the rounded outline');
  t.is(png.data[(png.width * (png.height / 2) + png.width / 2) * 4 + 3], 255, 'the middle is opaque');
  t.not(renderJobId({ userId: PROFILE.userId, options: { layout: 'welcome' } }), renderJobId({ userId: PROFILE.userId, options: { layout: 'welcome-tall' } }));
});

test('the avatar is centred at the top, the texts centred on the card under it, headline then name then tag then message', async (t) => {
  const card = await renderCard(tall());
  t.true(WELCOME_TALL_AVATAR.centerX === WELCOME_TALL_FRAME.width / 2, 'the avatar is centred');
  t.deepEqual(roles(card.texts), ['headline', 'name', 'tag', 'message']);
  const decorationBottom = WELCOME_TALL_AVATAR.centerY + WELCOME_TALL_AVATAR.radius * 1.2;
  let previous = 0;
  for (const run of card.texts) {
    const middle = run.x + run.width / 2 - (run.style.letterSpacing ?? 0) / 2;
    t.true(Math.abs(middle - WELCOME_TALL_FRAME.width / 2) < 1, `${run.role} centred (${middle})`);
    t.true(run.baseline - run.style.size * 0.73 >= decorationBottom, `${run.role} is under the avatar's decoration`);
    t.true(run.baseline + run.style.size * 0.22 <= WELCOME_TALL_TEXT.bottom + 0.5, `${run.role} stays above the panel's bottom padding`);
    t.true(run.baseline > previous, `${run.role} is under the line before it`);
    previous = run.baseline;
  }
  const name = card.texts.find((run) => run.role === 'name')!;
  t.is(name.style.size, WELCOME_TALL_NAME.size, 'the name is the hero, at its full size');
  t.true(card.texts.every((run) => run.role === 'name' || run.style.size < name.style.size));
  t.is(card.texts.find((run) => run.role === 'headline')?.text, 'WELCOME TO PIXEL GARDEN');
  // Five lines do not fit under the avatar: the tag gives way, the subtitle is drawn.
  const withSubtitle = await renderCard(tall({ customSubtitle: 'Say hi in #introductions' }));
  t.deepEqual(roles(withSubtitle.texts), ['headline', 'name', 'message', 'subtitle']);
});

test('a long name takes two lines broken between words; the tag gives way before the name shrinks further', async (t) => {
  const card = await renderCard(tall({ customUsername: 'Bartholomew Featherstonehaugh-Worthington the Third' }));
  const names = card.texts.filter((run) => run.role === 'name');
  t.is(names.length, 2);
  t.false(names.some((run) => run.text.endsWith('…')), names.map((run) => run.text).join(' / '));
  t.true(names.every((run) => run.style.size >= WELCOME_TALL_NAME.twoLineMinSize));
  t.is(names.map((run) => run.text).join(' ').replace('- ', '-'), 'Bartholomew Featherstonehaugh-Worthington the Third', 'nothing cut, a break between words (or after the hyphen)');
  t.false(roles(card.texts).includes('tag'), 'the tag gave way to the two-line name');
  t.true(roles(card.texts).includes('message'), 'the member number stays');
});

test('no date, rank block, nameplate or server tag in this layout; the alt text calls it a welcome card', async (t) => {
  const card = await renderCard(
    tall({ customDate: 'Nov 22, 2026', rankData: { currentXp: 1, requiredXp: 2, level: 3, rank: 4, barColor: '#ffffff', levelColor: '#ffffff', autoColorRank: false } }, { profile: { ...PROFILE, serverTag: { tag: 'PG' }, nameplate: { colors: ['#2d5401', '#6aa624'] } } }),
  );
  t.deepEqual(roles(card.texts), ['headline', 'name', 'tag', 'message']);
  t.false(Object.keys(card.timings.steps).some((step) => ['date', 'rank bar', 'nameplate', 'server tag'].includes(step)), Object.keys(card.timings.steps).join(', '));
  t.is(cardAltText(tall()), 'Welcome card for Priya Raman (@priya.makes): “Welcome to Pixel Garden”, “Member #1,234”.');
});

test('scale 2 draws 1920x1080 from the same layout', async (t) => {
  const input = tall({}, { images: { background: sampleLandscapeJpeg() } });
  const withBackground: CardInput = { ...input, options: { ...input.options, customBackground: 'https://example.com/landscape.jpg' } };
  const oneX = await renderCard(withBackground);
  const hidpi = await renderCard({ ...withBackground, options: cardOptionsSchema.parse({ ...withBackground.options, scale: 2 }) });
  t.deepEqual([hidpi.width, hidpi.height], [1920, 1080]);
  t.deepEqual(hidpi.texts, oneX.texts);
});

test('an animated tall card keeps the output-pixel cap: at most 31 frames at 1x', async (t) => {
  const card = await renderAnimatedCard(tall({ animated: true }, { profile: { ...PROFILE, avatar: await movingAvatar() } }), { format: 'webp' });
  t.true(card.animated);
  t.deepEqual([card.width, card.height], [960, 540]);
  const cap = Math.floor(ANIMATION_CAPS.maxOutputPixels / (960 * 540));
  t.is(cap, 31);
  t.true(card.frames <= cap, `${card.frames} frames`);
});
