import test from 'ava';
import { renderAnimatedCard, renderCard } from '../../../../packages/card/src/index.ts';
import { AVATAR, AVATAR_DECORATION_SCALE } from '../../../../packages/card/src/layout/card-layout.ts';
import { CardImageError } from '../../../../packages/card/src/images/card-image-error.ts';
import { animatedImage, BLUE, buildApng, buildGif, RED, type Rgba, solidCanvas, solidGifFrame } from '../../../fixtures/images.ts';
import { decodeFrames, gifsicleInfo, webpmuxInfo } from '../../../support/card/animation/animated-fixtures.ts';

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };
const COLORS: Rgba[] = [
  [230, 40, 40, 255],
  [40, 200, 60, 255],
  [40, 60, 230, 255],
  [240, 220, 40, 255],
];
const DELAYS = [100, 200, 300, 400];

/** The square the avatar layer (picture, ring, decoration) covers, in 1x pixels, with a margin. */
const AVATAR_BOX = (() => {
  const half = Math.ceil(AVATAR.radius * AVATAR_DECORATION_SCALE) + 6;
  return { left: AVATAR.centerX - half, right: AVATAR.centerX + half, top: AVATAR.centerY - half, bottom: AVATAR.centerY + half };
})();

/** The largest channel difference between two frames, inside and outside `box`. */
function frameDifference(width: number, first: Buffer, second: Buffer, box: typeof AVATAR_BOX): { inside: number; outside: number } {
  let inside = 0;
  let outside = 0;
  for (let offset = 0; offset < first.length; offset += 1) {
    const pixel = offset >> 2;
    const [x, y] = [pixel % width, Math.floor(pixel / width)];
    const difference = Math.abs((first[offset] ?? 0) - (second[offset] ?? 0));
    if (x >= box.left && x < box.right && y >= box.top && y < box.bottom) inside = Math.max(inside, difference);
    else outside = Math.max(outside, difference);
  }
  return { inside, outside };
}

test('an animated GIF avatar makes an animated WebP with its own frame times, read back by webpmux', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: {} }, { format: 'webp' });
  t.true(card.animated);
  t.is(card.format, 'webp');
  t.deepEqual(card.delaysMs, DELAYS);
  const info = webpmuxInfo(card.bytes);
  t.deepEqual(info, { frames: 4, durationsMs: DELAYS, loop: 0, width: 900, height: 300 });
  t.true(card.bytes.length < 8 * 1024 * 1024);
});

test('the welcome layout moves too, with the same frame times', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: { layout: 'welcome', message: 'You are member #1,234' } }, { format: 'webp' });
  t.true(card.animated);
  t.deepEqual(webpmuxInfo(card.bytes), { frames: 4, durationsMs: DELAYS, loop: 0, width: 900, height: 300 });
});

test('GIF output carries the same delays in hundredths of a second, read back by gifsicle', async (t) => {
  const avatar = await animatedImage('webp', { width: 128, height: 128 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: {} }, { format: 'gif' });
  t.true(card.animated);
  t.is(card.format, 'gif');
  t.deepEqual(gifsicleInfo(card.bytes), { frames: 4, delaysMs: DELAYS, width: 900, height: 300, loopsForever: true });
});

test('frames change where the avatar moves and nowhere else', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: { rankData: { currentXp: 5, requiredXp: 10, level: 3, rank: 7, barColor: '#fff', levelColor: '#fff', autoColorRank: true } } }, { format: 'webp' });
  const { width, frames } = await decodeFrames(card.bytes);
  t.is(frames.length, 4);
  for (let index = 1; index < frames.length; index += 1) {
    const difference = frameDifference(width, frames[0]!, frames[index]!, AVATAR_BOX);
    t.true(difference.inside > 100, `frame ${index} shows another avatar color`);
    t.true(difference.outside <= 2, `frame ${index} is unchanged outside the avatar (${difference.outside})`);
  }
});

test('customAvatar replaces a moving profile avatar: its APNG frames move the avatar, the profile avatar is not read', async (t) => {
  const profileAvatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const customAvatar = buildApng(solidCanvas(64, 64, RED), solidCanvas(64, 64, BLUE));
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar: profileAvatar }, options: { customAvatar: 'https://example.com/a.png' }, images: { avatar: customAvatar } }, { format: 'webp' });
  t.true(card.animated);
  // The APNG's two frames of 100 ms each, not the profile GIF's four.
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, [100, 100]);
  const { width, frames } = await decodeFrames(card.bytes);
  const at = (frame: Buffer) => frame.subarray((AVATAR.centerY * width + AVATAR.centerX) * 4, (AVATAR.centerY * width + AVATAR.centerX) * 4 + 3);
  const [first, second] = [at(frames[0]!), at(frames[1]!)];
  t.true(first[0]! > 200 && first[2]! < 60, `red first: ${[...first].join(',')}`);
  t.true(second[2]! > 200 && second[0]! < 60, `blue second: ${[...second].join(',')}`);
});

test('a customAvatar that is not an image is the caller\'s error naming customAvatar, not a fallback', async (t) => {
  const error = await t.throwsAsync(renderCard({ profile: PROFILE, options: { customAvatar: 'https://example.com/a.png' }, images: { avatar: Buffer.from('<html>not an image</html>') } }), { instanceOf: CardImageError });
  t.is(error?.field, 'customAvatar');
});

test('the first frame is the still card, up to lossy encoding', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const input = { profile: { ...PROFILE, avatar }, options: {} };
  const [animated, still] = await Promise.all([renderAnimatedCard(input, { format: 'gif' }), renderCard(input)]);
  const [{ frames }, stillPixels] = await Promise.all([decodeFrames(animated.bytes), decodeFrames(still.png)]);
  let total = 0;
  for (let offset = 0; offset < frames[0]!.length; offset += 1) total += Math.abs((frames[0]![offset] ?? 0) - (stillPixels.frames[0]![offset] ?? 0));
  t.true(total / frames[0]!.length < 3, `mean channel difference ${total / frames[0]!.length}`);
});

test('a moving background and a moving avatar merge into one timeline where each keeps its timing', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  // 3 frames of 250 ms: a 750 ms loop against the avatar's 1000 ms; they meet again after 3000 ms.
  const background = await animatedImage('webp', { width: 300, height: 100 }, COLORS.slice(0, 3), [250, 250, 250]);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: {}, images: { background } }, { format: 'webp' });
  t.true(card.animated);
  const changes = new Set<number>();
  for (let start = 0; start < 3000; start += 250) changes.add(start);
  for (let start = 0; start < 3000; start += 1000) for (const offset of [0, 100, 300, 600]) changes.add(start + offset);
  const starts = [...changes].sort((first, second) => first - second);
  t.deepEqual(card.delaysMs, starts.map((start, index) => (starts[index + 1] ?? 3000) - start));
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, card.delaysMs);
  const { frames } = await decodeFrames(card.bytes);
  const corner = (frame: Buffer) => [...frame.subarray((40 * 900 + 880) * 4, (40 * 900 + 880) * 4 + 3)];
  // The background's corner (outside the panel) changes exactly at 250 ms steps.
  t.notDeepEqual(corner(frames[0]!), corner(frames[starts.indexOf(250)]!));
  t.deepEqual(corner(frames[0]!), corner(frames[starts.indexOf(100)]!));
});

test('an animated WebP decoration moves the card', async (t) => {
  const avatarDecoration = await animatedImage('webp', { width: 120, height: 120 }, COLORS.map(([r, g, b]) => [r, g, b, 160] as Rgba), [200, 200, 200, 200]);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatarDecoration }, options: {} }, { format: 'webp' });
  t.true(card.animated);
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, [200, 200, 200, 200]);
});

test('nothing moving gives the still card: the same PNG as renderCard, animated false', async (t) => {
  const input = { profile: { ...PROFILE, avatar: await animatedImage('gif', { width: 64, height: 64 }, COLORS.slice(0, 1), [100]) }, options: {} };
  const [card, still] = await Promise.all([renderAnimatedCard(input, { format: 'webp' }), renderCard(input)]);
  t.false(card.animated);
  t.is(card.format, 'png');
  t.true(card.bytes.equals(still.png));
});

test('removeAvatarFrame keeps a moving decoration out, so the card does not move', async (t) => {
  const avatarDecoration = await animatedImage('webp', { width: 120, height: 120 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatarDecoration }, options: { removeAvatarFrame: true } }, { format: 'webp' });
  t.false(card.animated);
});

test('at scale 2 the animation is 1800x600 with fewer frames allowed', async (t) => {
  const avatar = await animatedImage('gif', { width: 128, height: 128 }, COLORS, DELAYS);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: {}, scale: 2 }, { format: 'webp' });
  t.deepEqual([card.width, card.height, card.frames], [1800, 600, 4]);
  t.is(webpmuxInfo(card.bytes).width, 1800);
});

test('under a moving background the text is made legible for its lightest frame, not only its first', async (t) => {
  const black: Rgba = [0, 0, 0, 255];
  const white: Rgba = [255, 255, 255, 255];
  const background = await animatedImage('webp', { width: 300, height: 100 }, [black, white], [500, 500]);
  const whiteStill = await animatedImage('webp', { width: 300, height: 100 }, [white], [500]);
  // A white name keeps both cards on the dark theme: left to the background, the still white card
  // would take the light one, while the animated card's theme follows its first (black) frame.
  const options = { customBackground: 'https://example.com/blink.webp', usernameColor: '#ffffff' };
  const [animated, stillOnWhite] = await Promise.all([
    renderAnimatedCard({ profile: PROFILE, options, images: { background } }, { format: 'webp' }),
    renderCard({ profile: PROFILE, options, images: { background: whiteStill } }),
  ]);
  const [{ frames }, still] = await Promise.all([decodeFrames(animated.bytes), decodeFrames(stillOnWhite.png)]);
  // The white frame is the still card on white: the panel darkened just as much for the text.
  let total = 0;
  for (let offset = 0; offset < frames[1]!.length; offset += 1) total += Math.abs((frames[1]![offset] ?? 0) - (still.frames[0]![offset] ?? 0));
  t.true(total / frames[1]!.length < 3, `mean channel difference ${total / frames[1]!.length}`);
});

test('an avatar whose later frame is damaged is drawn still, with a warning naming it', async (t) => {
  // The second frame's LZW data asks for codes its table does not have yet.
  const broken = { ...solidGifFrame(32, 32, 1), imageData: Buffer.from([2, 3, 0xff, 0xff, 0xff, 0]) };
  const avatar = buildGif({ width: 32, height: 32, palette: [[255, 0, 0], [0, 0, 255]], loop: true, frames: [solidGifFrame(32, 32, 0), broken, solidGifFrame(32, 32, 0)] });
  const input = { profile: { ...PROFILE, avatar }, options: {} };
  const [card, still] = await Promise.all([renderAnimatedCard(input, { format: 'webp' }), renderCard(input)]);
  t.false(card.animated);
  t.true(card.bytes.equals(still.png));
  t.deepEqual(card.warnings, ['avatar: a frame of the animation could not be decoded; it may be damaged']);
});
