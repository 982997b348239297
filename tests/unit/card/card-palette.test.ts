/**
 * A card with no colours given takes them from the member's own pictures (issue 30, item 2): the
 * avatar's dominant colour, else the background photo's, else Discord's blurple; never a hash of
 * the user id. Checked on the drawn border and ring, by hue.
 */
import { DEFAULT_CARD_ACCENT, parseHexColor, type Rgb } from '@utility-api/render-jobs';
import test from 'ava';
import { createCanvas } from 'canvas';
import type { PNG } from 'pngjs';
import { renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { toHsl } from '../../../packages/card/src/color/color.ts';
import { AVATAR, BORDER } from '../../../packages/card/src/layout/card-layout.ts';
import { sampleSolidPng } from '../../../packages/card/samples/sample-images.ts';
import { decodePng } from '../../support/card/golden-images.ts';

/** A photo-like avatar: a face of skin tones and grey hair on a backdrop of `hue`, PNG 256x256 (all grey at saturation 0). */
function avatarOn(hue: number, saturation = 70): Buffer {
  const canvas = createCanvas(256, 256);
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, 256, 256);
  gradient.addColorStop(0, `hsl(${hue}, ${saturation}%, 55%)`);
  gradient.addColorStop(1, `hsl(${hue + 12}, ${saturation}%, 32%)`);
  context.fillStyle = gradient;
  context.fillRect(0, 0, 256, 256);
  context.fillStyle = '#6b6b70';
  context.beginPath();
  context.arc(128, 120, 82, 0, Math.PI * 2);
  context.fill();
  context.fillStyle = saturation === 0 ? '#c8c8c8' : '#e8c4a8';
  context.beginPath();
  context.arc(128, 140, 64, 0, Math.PI * 2);
  context.fill();
  return canvas.toBuffer('image/png');
}

const PROFILE = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada' };

function pixel(png: PNG, x: number, y: number): Rgb {
  const offset = (y * png.width + x) * 4;
  return { r: png.data[offset] ?? 0, g: png.data[offset + 1] ?? 0, b: png.data[offset + 2] ?? 0 };
}

/** The hue of the border (middle of the left edge) and of the avatar ring (left of the avatar). */
async function drawnHues(input: CardInput): Promise<{ border: number; ring: number }> {
  const png = decodePng((await renderCard(input)).png);
  const border = toHsl(pixel(png, Math.floor(BORDER.width / 2), 150));
  const ring = toHsl(pixel(png, Math.round(AVATAR.centerX - AVATAR.radius - AVATAR.ringWidth / 2), AVATAR.centerY));
  return { border: border.h, ring: ring.h };
}

/** Distance between two hues on the wheel, in degrees. */
const hueDistance = (first: number, second: number) => Math.min(Math.abs(first - second), 360 - Math.abs(first - second));

test('a red avatar gives a red-family accent, a blue one blue, a green one green: border and ring, by hue', async (t) => {
  for (const [name, hue] of [['red', 0], ['blue', 220], ['green', 130], ['pink', 330]] as const) {
    const drawn = await drawnHues({ profile: { ...PROFILE, avatar: avatarOn(hue) }, options: {} });
    t.true(hueDistance(drawn.border, hue) <= 20, `${name}: border hue ${drawn.border.toFixed(0)}`);
    // The ring is a gradient from the accent to its neighbour 38° on: its left edge is the accent's side.
    t.true(hueDistance(drawn.ring, hue) <= 45, `${name}: ring hue ${drawn.ring.toFixed(0)}`);
  }
});

test('the user id no longer picks the colour: two users with the same avatar get the same accent', async (t) => {
  const avatar = avatarOn(0);
  const first = await renderCard({ profile: { ...PROFILE, avatar }, options: {} });
  const second = await renderCard({ profile: { ...PROFILE, userId: '1083722195840204800', avatar }, options: {} });
  t.deepEqual(pixel(decodePng(first.png), 2, 150), pixel(decodePng(second.png), 2, 150));
});

test('a grey avatar gives the background photo\'s colour; no colour anywhere gives the documented blurple', async (t) => {
  const grey = avatarOn(0, 0);
  const onOrange = await drawnHues({ profile: { ...PROFILE, avatar: grey }, options: { customBackground: 'https://example.com/b.png' }, images: { background: sampleSolidPng('#d2691e') } });
  t.true(hueDistance(onOrange.border, toHsl(parseHexColor('#d2691e')).h) <= 20, `border hue ${onOrange.border.toFixed(0)}`);
  const blurple = toHsl(parseHexColor(DEFAULT_CARD_ACCENT)).h;
  for (const profile of [{ ...PROFILE, avatar: grey }, PROFILE]) {
    const drawn = await drawnHues({ profile, options: {} });
    t.true(hueDistance(drawn.border, blurple) <= 10, `border hue ${drawn.border.toFixed(0)}`);
  }
});

test('a colour given still wins: the profile accent colour and borderColor', async (t) => {
  const red = avatarOn(0);
  const accent = await drawnHues({ profile: { ...PROFILE, avatar: red, accentColor: '#2f6bff' }, options: {} });
  t.true(hueDistance(accent.border, toHsl(parseHexColor('#2f6bff')).h) <= 10, `border hue ${accent.border.toFixed(0)}`);
  const png = decodePng((await renderCard({ profile: { ...PROFILE, avatar: red }, options: { borderColor: '#00ff00' } })).png);
  t.deepEqual(pixel(png, 2, 150), { r: 0, g: 255, b: 0 });
});
