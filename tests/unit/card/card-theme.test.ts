/**
 * The card's theme (packages/card/src/legibility/theme.ts): a light background gets dark text on a
 * light panel and keeps its light, instead of being veiled and darkened into a grey slab; dark,
 * mid-tone and busy backgrounds keep the dark theme. Contrast on every background and theme is
 * checked from the PNG in card-legibility.test.ts.
 */
import test from 'ava';
import type { PNG } from 'pngjs';
import { renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { relativeLuminance } from '../../../packages/card/src/legibility/contrast.ts';
import { GROUND_TEXT } from '../../../packages/card/src/legibility/ground.ts';
import { sampleBusyPng, sampleLandscapeJpeg, sampleLightPhotoJpeg, sampleSolidPng } from '../../../packages/card/samples/sample-images.ts';
import { decodePng } from '../../support/card/golden-images.ts';

const PROFILE = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada' };
const RANK = { currentXp: 1240, requiredXp: 5000, level: 12, rank: 1, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

const onBackground = (background: Buffer, options: CardInput['options'] = {}): CardInput => ({
  profile: PROFILE,
  options: { customBackground: 'https://example.com/background.png', rankData: RANK, ...options },
  images: { background },
});

/** The median luminance of a patch of the panel with no text on it (right of the name, above the rank row). */
function panelLuminance(png: PNG): number {
  const values: number[] = [];
  for (let y = 90; y < 130; y += 2) {
    for (let x = 560; x < 840; x += 2) {
      const offset = (y * png.width + x) * 4;
      values.push(relativeLuminance({ r: png.data[offset] ?? 0, g: png.data[offset + 1] ?? 0, b: png.data[offset + 2] ?? 0 }));
    }
  }
  values.sort((first, second) => first - second);
  return values[Math.floor(values.length / 2)] ?? 0;
}

async function themeOf(input: CardInput): Promise<{ name: string; panel: number }> {
  const card = await renderCard(input);
  const name = card.texts.find((run) => run.role === 'name');
  return { name: name?.style.color ?? '', panel: panelLuminance(decodePng(card.png)) };
}

test('a light photo takes the light theme and stays light; the same photo with a white name is the old dark slab', async (t) => {
  const photo = sampleLightPhotoJpeg();
  const light = await themeOf(onBackground(photo));
  t.is(light.name, GROUND_TEXT.light.value);
  t.true(light.panel >= 0.6, `panel luminance ${light.panel.toFixed(2)}`);
  const forcedDark = await themeOf(onBackground(photo, { usernameColor: '#ffffff' }));
  t.true(forcedDark.panel < 0.1, `panel luminance ${forcedDark.panel.toFixed(2)}`);
  // Both layouts follow the background.
  t.is((await themeOf(onBackground(photo, { layout: 'welcome' }))).name, GROUND_TEXT.light.value);
});

test('white is light; black, a dark photo, a busy picture and generated art stay dark', async (t) => {
  t.is((await themeOf(onBackground(sampleSolidPng('#ffffff')))).name, GROUND_TEXT.light.value);
  t.is((await themeOf(onBackground(sampleSolidPng('#e8eef5')))).name, GROUND_TEXT.light.value);
  for (const background of [sampleSolidPng('#000000'), sampleSolidPng('#777777'), sampleLandscapeJpeg(), sampleBusyPng()]) {
    t.is((await themeOf(onBackground(background))).name, GROUND_TEXT.dark.value);
  }
  t.is((await themeOf({ profile: PROFILE, options: {} })).name, GROUND_TEXT.dark.value);
});

test('an explicit backgroundBrightness veils the photo as asked, and the veiled photo decides', async (t) => {
  const white = sampleSolidPng('#ffffff');
  const dimmed = await themeOf(onBackground(white, { backgroundBrightness: 20 }));
  t.is(dimmed.name, GROUND_TEXT.dark.value);
  const asIs = await themeOf(onBackground(white, { backgroundBrightness: 100 }));
  t.is(asIs.name, GROUND_TEXT.light.value);
  // Not given, the light theme draws no veil: the same pixels as brightness 100.
  const byDefault = await renderCard(onBackground(white));
  t.true(byDefault.png.equals((await renderCard(onBackground(white, { backgroundBrightness: 100 }))).png));
});

test('a chosen name colour still decides the theme, whatever the background', async (t) => {
  t.is((await themeOf(onBackground(sampleSolidPng('#000000'), { usernameColor: '#1f2937' }))).name, '#1f2937');
  const card = await renderCard(onBackground(sampleSolidPng('#000000'), { usernameColor: '#1f2937' }));
  t.is(card.texts.find((run) => run.role === 'tag')?.style.color, GROUND_TEXT.light.tag);
  const onWhite = await renderCard(onBackground(sampleSolidPng('#ffffff'), { usernameColor: '#ffe08a' }));
  t.is(onWhite.texts.find((run) => run.role === 'tag')?.style.color, GROUND_TEXT.dark.tag);
});

test('on the light theme the podium colours are the deeper ones, which need no pill', async (t) => {
  const card = await renderCard(onBackground(sampleSolidPng('#ffffff')));
  const rank = card.texts.find((run) => run.role === 'rank');
  t.not(rank?.style.color, '#f5c542');
  const dark = await renderCard(onBackground(sampleSolidPng('#000000')));
  t.is(dark.texts.find((run) => run.role === 'rank')?.style.color, '#f5c542');
});
