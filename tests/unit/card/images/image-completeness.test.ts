import test from 'ava';
import { decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { rejectsWithCardImageError } from '../../../support/card/images/card-image-assertions.ts';
import { BLUE, buildAnimatedWebp, buildGif, encodeJpeg, encodePng, encodeWebp, findJpegMarker, GREEN, isCloseTo, pixelAt, quadrantCanvas, RED, riffChunk, riffFile, solidCanvas, solidGifFrame, vp8xChunk, WHITE } from '../../../fixtures/images.ts';

// Noisy quadrants so that every format's data is long enough to cut in the middle.
const picture = quadrantCanvas(64, 48, [RED, GREEN, BLUE, WHITE]);

test('a PNG cut short is corrupt (cairo alone would return the rows it got)', async (t) => {
  const png = encodePng(picture);
  await rejectsWithCardImageError(t, decodeImage(png.subarray(0, Math.floor(png.length * 0.6)), { field: 'avatar' }), 'corrupt', 'avatar');
});

test('a PNG missing only its IEND chunk still decodes whole: every row arrived', async (t) => {
  const png = encodePng(picture);
  const decoded = await decodeImage(png.subarray(0, png.length - 12), { field: 'avatar' });
  t.deepEqual([decoded.width, decoded.height], [64, 48]);
  t.deepEqual(pixelAt(decoded, 60, 44), WHITE);
});

test('a JPEG cut in the middle of its scan is corrupt (libjpeg alone would paint the rest grey)', async (t) => {
  const jpeg = encodeJpeg(picture);
  const scanStart = findJpegMarker(jpeg, 0xda);
  const cut = jpeg.subarray(0, scanStart + Math.floor((jpeg.length - scanStart) / 2));
  await rejectsWithCardImageError(t, decodeImage(cut, { field: 'customBackground' }), 'corrupt', 'customBackground');
});

test('a JPEG missing only its EOI marker is corrupt', async (t) => {
  const jpeg = encodeJpeg(picture);
  await rejectsWithCardImageError(t, decodeImage(jpeg.subarray(0, jpeg.length - 2), { field: 'customBackground' }), 'corrupt', 'customBackground');
});

test('a JPEG followed by zero padding or appended data (as Motion Photos carry) still decodes', async (t) => {
  const jpeg = encodeJpeg(picture);
  for (const trailer of [Buffer.alloc(512), Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0mp42isom', 'latin1')]) {
    const decoded = await decodeImage(Buffer.concat([jpeg, trailer]), { field: 'avatar' });
    t.deepEqual([decoded.width, decoded.height], [64, 48]);
    t.true(isCloseTo(pixelAt(decoded, 10, 10), RED, 24));
  }
});

const palette: [number, number, number][] = [[255, 0, 0], [0, 0, 255]];

test('a GIF without its trailer still decodes whole: its frame arrived', async (t) => {
  const gif = buildGif({ width: 16, height: 16, palette, frames: [solidGifFrame(16, 16, 0)] });
  const decoded = await decodeImage(gif.subarray(0, gif.length - 1), { field: 'banner' });
  t.deepEqual(pixelAt(decoded, 15, 15), RED);
});

test('a GIF cut inside its first frame is corrupt', async (t) => {
  const gif = buildGif({ width: 16, height: 16, palette, frames: [solidGifFrame(16, 16, 0)] });
  await rejectsWithCardImageError(t, decodeImage(gif.subarray(0, gif.length - 100), { field: 'banner' }), 'corrupt', 'banner');
});

test('an animated GIF cut in a later frame gives its whole first frame: frames a card does not draw are not read', async (t) => {
  const gif = buildGif({ width: 16, height: 16, palette, frames: [solidGifFrame(16, 16, 0), solidGifFrame(16, 16, 1)] });
  const decoded = await decodeImage(gif.subarray(0, gif.length - 100), { field: 'banner' });
  t.deepEqual(pixelAt(decoded, 15, 15), RED);
});

test('a WebP whose RIFF size is larger than the bytes received is corrupt', async (t) => {
  const webp = await encodeWebp(picture, { lossless: true });
  await rejectsWithCardImageError(t, decodeImage(webp.subarray(0, webp.length - 10), { field: 'avatar' }), 'corrupt', 'avatar');
});

test('a WebP chunk claiming more bytes than the RIFF holds is corrupt', async (t) => {
  const webp = Buffer.from(await encodeWebp(picture, { lossless: true }));
  webp.writeUInt32LE(webp.readUInt32LE(16) + 100, 16); // the VP8L chunk's size
  await rejectsWithCardImageError(t, decodeImage(webp, { field: 'avatar' }), 'corrupt', 'avatar');
});

test('an animated WebP without frames, or a VP8X still without image data, is corrupt', async (t) => {
  const noFrames = riffFile([vp8xChunk(0x02, 8, 8), riffChunk('ANIM', Buffer.alloc(6))]);
  await rejectsWithCardImageError(t, decodeImage(noFrames, { field: 'avatar' }), 'corrupt', 'avatar');
  const noImage = riffFile([vp8xChunk(0, 8, 8), riffChunk('EXIF', Buffer.alloc(4))]);
  await rejectsWithCardImageError(t, decodeImage(noImage, { field: 'avatar' }), 'corrupt', 'avatar');
  const frame = await encodeWebp(solidCanvas(8, 8, RED), { lossless: true });
  const outsideCanvas = buildAnimatedWebp(8, 8, [{ still: frame, width: 8, height: 8, x: 2, y: 0 }]);
  await rejectsWithCardImageError(t, decodeImage(outsideCanvas, { field: 'avatar' }), 'corrupt', 'avatar');
});
