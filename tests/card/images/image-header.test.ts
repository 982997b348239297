import test from 'ava';
import { decodeImage, readImageHeader } from '../../../packages/card/src/images/index.ts';
import { throwsCardImageError } from './card-image-assertions.ts';
import {
  BLUE,
  buildAnimatedWebp,
  buildApng,
  buildGif,
  encodeJpeg,
  encodePng,
  encodeWebp,
  exifSegmentWithThumbnail,
  findJpegMarker,
  GREEN,
  ihdrChunk,
  insertBytes,
  parsePngChunks,
  parseWebpChunks,
  PNG_SIGNATURE,
  pngChunk,
  RED,
  riffChunk,
  riffFile,
  solidCanvas,
  solidGifFrame,
  withJpegFrameSize,
} from './fixtures.ts';

const canvas = solidCanvas(37, 21, RED);

// ---------------------------------------------------------------------------------------- PNG

test('PNG: the size comes from IHDR', (t) => {
  t.deepEqual(readImageHeader(encodePng(canvas), 'png', 'avatar'), { format: 'png', width: 37, height: 21, animated: false });
});

test('PNG: an acTL chunk before the image data marks an APNG as animated', (t) => {
  const apng = buildApng(solidCanvas(37, 21, RED), solidCanvas(37, 21, BLUE));
  t.deepEqual(readImageHeader(apng, 'png', 'avatar'), { format: 'png', width: 37, height: 21, animated: true });
});

test('PNG: IHDR must be the first chunk', (t) => {
  const [ihdr, ...rest] = parsePngChunks(encodePng(canvas));
  const reordered = Buffer.concat([PNG_SIGNATURE, pngChunk('tEXt', Buffer.from('Comment\0first')), ihdr?.raw ?? Buffer.alloc(0), ...rest.map((chunk) => chunk.raw)]);
  throwsCardImageError(t, () => readImageHeader(reordered, 'png', 'banner'), 'corrupt', 'banner');
});

test('PNG: an IHDR with a wrong checksum is corrupt, not judged by the size it claims', (t) => {
  const png = Buffer.from(encodePng(canvas));
  png.writeUInt32BE(30000, 16); // width, without fixing the CRC
  throwsCardImageError(t, () => readImageHeader(png, 'png', 'banner'), 'corrupt', 'banner');
});

test('PNG: a zero or out-of-range size is corrupt', (t) => {
  for (const [width, height] of [[0, 10], [10, 0], [2 ** 31, 10]] as const) {
    const png = Buffer.concat([PNG_SIGNATURE, ihdrChunk(width, height), pngChunk('IEND', Buffer.alloc(0))]);
    throwsCardImageError(t, () => readImageHeader(png, 'png', 'customBackground'), 'corrupt', 'customBackground');
  }
});

// --------------------------------------------------------------------------------------- JPEG

test('JPEG: the size comes from the first SOF segment', (t) => {
  t.deepEqual(readImageHeader(encodeJpeg(canvas), 'jpeg', 'avatar'), { format: 'jpeg', width: 37, height: 21, animated: false });
});

test('JPEG: APP segments are skipped by their length, so an EXIF thumbnail\'s SOF is not mistaken for the image\'s', async (t) => {
  const thumbnail = encodeJpeg(solidCanvas(10, 8, GREEN));
  const jpeg = insertBytes(encodeJpeg(canvas), 2, exifSegmentWithThumbnail(thumbnail));
  t.deepEqual(readImageHeader(jpeg, 'jpeg', 'avatar'), { format: 'jpeg', width: 37, height: 21, animated: false });
  const decoded = await decodeImage(jpeg, { field: 'avatar' });
  t.deepEqual([decoded.width, decoded.height], [37, 21]);
});

test('JPEG: 0xFF fill bytes before markers are skipped', async (t) => {
  const plain = encodeJpeg(canvas);
  const withFill = insertBytes(insertBytes(plain, findJpegMarker(plain, 0xc0), Buffer.from([0xff, 0xff, 0xff])), 2, Buffer.from([0xff, 0xff]));
  t.deepEqual(readImageHeader(withFill, 'jpeg', 'avatar'), { format: 'jpeg', width: 37, height: 21, animated: false });
  t.is((await decodeImage(withFill, { field: 'avatar' })).width, 37);
});

test('JPEG: scan data before any SOF is corrupt', (t) => {
  const jpeg = encodeJpeg(canvas);
  const sof = findJpegMarker(jpeg, 0xc0);
  const withoutSof = Buffer.concat([jpeg.subarray(0, sof), jpeg.subarray(sof + 2 + jpeg.readUInt16BE(sof + 2))]);
  throwsCardImageError(t, () => readImageHeader(withoutSof, 'jpeg', 'avatar'), 'corrupt', 'avatar');
});

test('JPEG: a frame of height 0 (DNL, which libjpeg does not support) is corrupt', (t) => {
  throwsCardImageError(t, () => readImageHeader(withJpegFrameSize(encodeJpeg(canvas), 37, 0), 'jpeg', 'avatar'), 'corrupt', 'avatar');
});

test('JPEG: a segment running past the end of the bytes is corrupt', (t) => {
  const jpeg = encodeJpeg(canvas);
  throwsCardImageError(t, () => readImageHeader(jpeg.subarray(0, findJpegMarker(jpeg, 0xc0) + 5), 'jpeg', 'avatar'), 'corrupt', 'avatar');
});

// ---------------------------------------------------------------------------------------- GIF

const palette: [number, number, number][] = [[255, 0, 0], [0, 0, 255]];

test('GIF: the size is the logical screen, and one frame is not animated', (t) => {
  const gif = buildGif({ width: 30, height: 20, palette, frames: [solidGifFrame(30, 20, 0)] });
  t.deepEqual(readImageHeader(gif, 'gif', 'avatar'), { format: 'gif', width: 30, height: 20, animated: false });
});

test('GIF: a second image marks it animated', (t) => {
  const gif = buildGif({ width: 30, height: 20, palette, loop: true, frames: [solidGifFrame(30, 20, 0), solidGifFrame(30, 20, 1)] });
  t.true(readImageHeader(gif, 'gif', 'avatar').animated);
});

test('GIF: a first frame sticking out of the screen grows the size to contain it', (t) => {
  const gif = buildGif({ width: 10, height: 10, palette, frames: [solidGifFrame(10, 6, 0, { left: 8, top: 8 })] });
  t.like(readImageHeader(gif, 'gif', 'avatar'), { width: 18, height: 14 });
});

test('GIF: a file without an image, or with a 0x0 frame, is corrupt', (t) => {
  const noImage = buildGif({ width: 10, height: 10, palette, frames: [] });
  throwsCardImageError(t, () => readImageHeader(noImage, 'gif', 'avatar'), 'corrupt', 'avatar');
  const emptyFrame = buildGif({ width: 10, height: 10, palette, frames: [{ indices: new Uint8Array(0), width: 0, height: 0 }] });
  throwsCardImageError(t, () => readImageHeader(emptyFrame, 'gif', 'avatar'), 'corrupt', 'avatar');
});

test('GIF: an unknown block type is corrupt', (t) => {
  const gif = buildGif({ width: 4, height: 4, palette, frames: [solidGifFrame(4, 4, 0)] });
  const screenEnd = 13 + 6; // two-color global table
  throwsCardImageError(t, () => readImageHeader(insertBytes(gif, screenEnd, Buffer.from([0x99])), 'gif', 'avatar'), 'corrupt', 'avatar');
});

// --------------------------------------------------------------------------------------- WebP

test('WebP: VP8L (lossless) and VP8 (lossy) give their size from the bitstream header', async (t) => {
  const lossless = await encodeWebp(canvas, { lossless: true });
  const lossy = await encodeWebp(canvas, { lossless: false });
  t.is(parseWebpChunks(lossless)[0]?.fourcc, 'VP8L');
  t.is(parseWebpChunks(lossy)[0]?.fourcc, 'VP8 ');
  t.deepEqual(readImageHeader(lossless, 'webp', 'avatar'), { format: 'webp', width: 37, height: 21, animated: false });
  t.deepEqual(readImageHeader(lossy, 'webp', 'avatar'), { format: 'webp', width: 37, height: 21, animated: false });
});

test('WebP: VP8X gives the canvas size; with alpha it is a still', async (t) => {
  const withAlpha = await encodeWebp(solidCanvas(37, 21, [0, 0, 255, 128]), { lossless: false });
  t.is(parseWebpChunks(withAlpha)[0]?.fourcc, 'VP8X');
  t.deepEqual(readImageHeader(withAlpha, 'webp', 'avatar'), { format: 'webp', width: 37, height: 21, animated: false });
});

test('WebP: the VP8X animation flag marks it animated', async (t) => {
  const frame = await encodeWebp(solidCanvas(8, 8, RED), { lossless: true });
  const animated = buildAnimatedWebp(40, 30, [{ still: frame, width: 8, height: 8 }]);
  t.deepEqual(readImageHeader(animated, 'webp', 'avatar'), { format: 'webp', width: 40, height: 30, animated: true });
});

test('WebP: a file not starting with an image chunk, or with a bad VP8L signature, is corrupt', (t) => {
  const unknownFirst = riffFile([riffChunk('XYZW', Buffer.alloc(10))]);
  throwsCardImageError(t, () => readImageHeader(unknownFirst, 'webp', 'avatar'), 'corrupt', 'avatar');
  const badSignature = riffFile([riffChunk('VP8L', Buffer.from([0x00, 0x00, 0x00, 0x00, 0x00, 0x00]))]);
  throwsCardImageError(t, () => readImageHeader(badSignature, 'webp', 'avatar'), 'corrupt', 'avatar');
});
