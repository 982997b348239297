import test from 'ava';
import { decodeImage, type DecodedImage } from '../../../../packages/card/src/images/decode-image.ts';
import { BLUE, buildAnimatedWebp, buildApng, buildGif, compressedGifImageData, countGifImages, encodeWebp, type GifFrame, GREEN, isCloseTo, peakMemoryGrowthMb, pixelAt, RED, type Rgb, solidCanvas, solidGifFrame, WHITE } from '../../../fixtures/images.ts';

const RED_BLUE_PALETTE: Rgb[] = [[255, 0, 0], [0, 0, 255]];

// ---------------------------------------------------------------------------------------- GIF

test.serial('a 3000-frame GIF decodes to its first frame without decoding every frame', async (t) => {
  // 1.1 MB of compressed 256x256 frames; holding them all decoded would take ~200 MB.
  const side = 256;
  const frame = (index: number): GifFrame => ({ indices: new Uint8Array(0), width: side, height: side, imageData: compressedGifImageData(new Uint8Array(side * side).fill(index)) });
  const [red, blue] = [frame(0), frame(1)];
  const gif = buildGif({ width: side, height: side, palette: RED_BLUE_PALETTE, loop: true, frames: [red, ...Array.from({ length: 2999 }, () => blue)] });
  t.is(countGifImages(gif), 3000);

  let decoded: DecodedImage | undefined;
  const growth = await peakMemoryGrowthMb(async () => {
    decoded = await decodeImage(gif, { field: 'avatar' });
  });
  t.true(growth < 100, `peak memory grew ${growth.toFixed(0)} MB`);
  if (decoded === undefined) throw new Error('decodeImage failed');
  t.like(decoded, { width: side, height: side, format: 'gif' });
  t.deepEqual(pixelAt(decoded, 0, 0), RED, 'frame 1 is red');
  t.deepEqual(pixelAt(decoded, side - 1, side - 1), RED);
  // Frame 2 on its own is blue: the frames really differ, and we got the first.
  const secondOnly = buildGif({ width: side, height: side, palette: RED_BLUE_PALETTE, frames: [blue] });
  t.deepEqual(pixelAt(await decodeImage(secondOnly, { field: 'avatar' }), 0, 0), BLUE);
});

test('the first GIF frame keeps its graphic control extension (transparency); looping and comments do not matter', async (t) => {
  const indices = new Uint8Array(16).map((_, index) => (index % 4 < 2 ? 0 : 1)); // left half transparent
  const gif = buildGif({
    width: 4,
    height: 4,
    palette: RED_BLUE_PALETTE,
    loop: true,
    comment: 'secret comment',
    frames: [{ indices, width: 4, height: 4, transparentIndex: 0 }, solidGifFrame(4, 4, 0)],
  });
  const decoded = await decodeImage(gif, { field: 'banner' });
  t.is(pixelAt(decoded, 0, 0)[3], 0, 'transparent index 0 stays transparent');
  t.deepEqual(pixelAt(decoded, 3, 0), BLUE);
});

test('an interlaced GIF comes out in row order', async (t) => {
  const palette: Rgb[] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]];
  const rowColors = [0, 1, 2, 3, 3, 2, 1, 0, 1, 2]; // row y has palette index rowColors[y]
  const storedOrder = [0, 8, 4, 2, 6, 1, 3, 5, 7, 9]; // interlace passes for 10 rows
  const indices = new Uint8Array(storedOrder.flatMap((row) => Array<number>(3).fill(rowColors[row] as number)));
  const gif = buildGif({ width: 3, height: 10, palette, frames: [{ indices, width: 3, height: 10, interlaced: true }] });
  const decoded = await decodeImage(gif, { field: 'avatar' });
  const rows = rowColors.map((_, y) => pixelAt(decoded, 1, y).slice(0, 3));
  t.deepEqual(rows, rowColors.map((index) => palette[index]));
});

test('an interlaced frame smaller than its screen decodes without reading past the frame', async (t) => {
  const gif = buildGif({ width: 16, height: 16, palette: RED_BLUE_PALETTE, frames: [solidGifFrame(4, 8, 1, { interlaced: true, left: 2, top: 2 })] });
  const decoded = await decodeImage(gif, { field: 'avatar' });
  t.like(decoded, { width: 16, height: 16 });
  t.deepEqual(pixelAt(decoded, 3, 5), BLUE);
});

test('pixel values beyond a small color table never read bytes past the table', async (t) => {
  // A 2-color table (6 bytes) and pixels of index 100, 294 bytes past it: refused or drawn from the table, never memory.
  const gif = buildGif({ width: 4, height: 4, palette: RED_BLUE_PALETTE, frames: [solidGifFrame(4, 4, 100)] });
  try {
    const [red, green, blue] = pixelAt(await decodeImage(gif, { field: 'avatar' }), 1, 1);
    t.true([[0, 0, 0], [255, 0, 0], [0, 0, 255]].some((color) => color.join() === [red, green, blue].join()), `${red},${green},${blue}`);
  } catch (error) {
    t.like(error, { reason: 'corrupt', field: 'avatar' });
  }
});

test('a first frame outside the logical screen is shown whole on a grown screen', async (t) => {
  const gif = buildGif({ width: 4, height: 4, palette: RED_BLUE_PALETTE, frames: [solidGifFrame(4, 4, 1, { left: 4, top: 4 })] });
  const decoded = await decodeImage(gif, { field: 'avatar' });
  t.like(decoded, { width: 8, height: 8 });
  t.deepEqual(pixelAt(decoded, 6, 6), BLUE);
});

test('a GIF with neither a global nor a local color table is refused or drawn from a default table, never from memory', async (t) => {
  const gif = Buffer.from(buildGif({ width: 2, height: 2, palette: RED_BLUE_PALETTE, frames: [solidGifFrame(2, 2, 0)] }));
  const withoutTable = Buffer.concat([gif.subarray(0, 10), Buffer.from([0x00]), gif.subarray(11, 13), gif.subarray(13 + 6)]);
  const outcome = await decodeImage(withoutTable, { field: 'avatar' }).catch((error: unknown) => error);
  if (outcome instanceof Error) t.like(outcome, { reason: 'corrupt', field: 'avatar' });
  else t.like(outcome, { width: 2, height: 2 });
});

// --------------------------------------------------------------------------------------- WebP

test('an animated lossless WebP decodes to its first frame', async (t) => {
  const first = await encodeWebp(solidCanvas(16, 16, RED), { lossless: true });
  const second = await encodeWebp(solidCanvas(16, 16, BLUE), { lossless: true });
  const animated = buildAnimatedWebp(16, 16, [{ still: first, width: 16, height: 16 }, { still: second, width: 16, height: 16 }]);
  const decoded = await decodeImage(animated, { field: 'avatar' });
  t.like(decoded, { width: 16, height: 16, format: 'webp' });
  t.deepEqual(pixelAt(decoded, 8, 8), RED);
  // And frame 2 alone really is different.
  t.deepEqual(pixelAt(await decodeImage(second, { field: 'avatar' }), 8, 8), BLUE);
});

test('an animated lossy WebP with alpha: the first frame (VP8 + ALPH) lands at its offset on a transparent canvas', async (t) => {
  const first = await encodeWebp(solidCanvas(10, 10, [0, 255, 0, 128]), { lossless: false });
  const second = await encodeWebp(solidCanvas(20, 20, BLUE), { lossless: false });
  const animated = buildAnimatedWebp(20, 20, [{ still: first, width: 10, height: 10, x: 4, y: 6 }, { still: second, width: 20, height: 20 }]);
  const decoded = await decodeImage(animated, { field: 'avatar' });
  t.like(decoded, { width: 20, height: 20 });
  t.deepEqual(pixelAt(decoded, 1, 1), [0, 0, 0, 0], 'outside the first frame: transparent');
  const inside = pixelAt(decoded, 9, 11);
  t.true(isCloseTo(inside, [0, 255, 0, 128], 12), `inside the first frame: ${inside.join(',')}`);
});

// ---------------------------------------------------------------------------------------- APNG

test('an APNG decodes to its default image, the first frame', async (t) => {
  const apng = buildApng(solidCanvas(12, 12, GREEN), solidCanvas(12, 12, WHITE));
  t.deepEqual(pixelAt(await decodeImage(apng, { field: 'avatar' }), 6, 6), GREEN);
});
