/**
 * The level number's chip (packages/card/src/steps/level-chip.ts): a `levelColor` the card's ground
 * cannot carry as text becomes the chip the number stands on, and the number takes the ground's
 * value colour at 4.5:1 on it; every other colour is drawn as text, with no chip and no pill.
 */
import { parseHexColor } from '@utility-api/render-jobs';
import test from 'ava';
import { renderCard } from '../../../packages/card/src/index.ts';
import { contrastRatio, relativeLuminance } from '../../../packages/card/src/legibility/contrast.ts';
import { GROUND_TEXT } from '../../../packages/card/src/legibility/ground.ts';
import { levelChipColors } from '../../../packages/card/src/steps/level-chip.ts';
import { sampleLightPhotoJpeg } from '../../../packages/card/samples/sample-images.ts';

const rgbOf = (css: string) => {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return { r: r ?? 0, g: g ?? 0, b: b ?? 0 };
};
const contrastOn = (fill: string, text: string) => contrastRatio(relativeLuminance(rgbOf(fill)), relativeLuminance(parseHexColor(text)));

test('a white, pale yellow or light grey level on the light theme gets a chip of its colour, the number dark on it at 4.5:1 or more', (t) => {
  for (const color of ['#ffffff', '#fde68a', '#ffd166', '#d1d5db', '#a7f3d0']) {
    const chip = levelChipColors(color, 'light');
    if (!chip) return t.fail(`${color}: no chip`);
    t.is(chip.text, GROUND_TEXT.light.value);
    t.true(contrastOn(chip.fill, chip.text) >= 4.75, `${color}: ${contrastOn(chip.fill, chip.text).toFixed(2)}`);
  }
  // White stays white: the caller's colour is the chip, not a grey box.
  t.is(levelChipColors('#ffffff', 'light')?.fill, 'rgba(255, 255, 255, 1)');
});

test('a navy level on the dark theme gets a chip too, the number white on it; colours that read as text get none', (t) => {
  const navy = levelChipColors('#1a1a60', 'dark');
  t.is(navy?.text, GROUND_TEXT.dark.value);
  t.true(contrastOn(navy?.fill ?? '', navy?.text ?? '#000000') >= 4.75);
  for (const color of ['#ffd166', '#ffffff', '#7c5cff']) t.is(levelChipColors(color, 'dark'), undefined, color);
  for (const color of ['#1f2937', '#b91c1c', '#5b21b6']) t.is(levelChipColors(color, 'light'), undefined, color);
});

test('on a light-theme card the chipped level is laid out in the dark value colour, with room for the chip beside its label', async (t) => {
  const rankData = { currentXp: 4820, requiredXp: 5000, level: 23, rank: 4, barColor: '#5865f2', levelColor: '#ffffff', autoColorRank: true };
  const card = await renderCard({ profile: { userId: '302050872383242240', username: 'mina.k', banner: sampleLightPhotoJpeg() }, options: { rankData } });
  const level = card.texts.find((run) => run.role === 'level');
  const label = card.texts.find((run) => run.role === 'level label');
  t.is(level?.style.color, GROUND_TEXT.light.value);
  // The chip's 12 px padding sits in the gap: the number starts 8 + 12 px after its label.
  t.true((level?.x ?? 0) - ((label?.x ?? 0) + (label?.width ?? 0)) >= 20 - 1e-9);
});
