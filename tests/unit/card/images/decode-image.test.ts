import test from 'ava';
import { Canvas } from 'canvas';
import { CardImageError, type CardImageErrorReason } from '../../../../packages/card/src/images/card-image-error.ts';
import { decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { rejectsWithCardImageError } from '../../../support/card/images/card-image-assertions.ts';
import { BLUE, buildGif, encodeJpeg, encodePng, encodeWebp, gifImageData, GREEN, ihdrChunk, isCloseTo, parsePngChunks, parseWebpChunks, pixelAt, PNG_SIGNATURE, pngChunk, quadrantCanvas, RED, type Rgba, solidCanvas, WHITE } from '../../../fixtures/images.ts';

const QUADRANTS: [Rgba, Rgba, Rgba, Rgba] = [RED, GREEN, BLUE, WHITE];
const picture = quadrantCanvas(40, 30, QUADRANTS);
/** A point well inside each quadrant, away from edges where lossy codecs bleed colors. */
const SAMPLES: [x: number, y: number][] = [[6, 5], [34, 5], [6, 25], [34, 25]];

function quadrantColors(image: Awaited<ReturnType<typeof decodeImage>>): Rgba[] {
  return SAMPLES.map(([x, y]) => pixelAt(image, x, y));
}

test('PNG decodes to its size and exact colors, as a canvas', async (t) => {
  const decoded = await decodeImage(encodePng(picture), { field: 'avatar' });
  t.like(decoded, { width: 40, height: 30, format: 'png', declared: { width: 40, height: 30 } });
  t.true(decoded.source instanceof Canvas);
  t.deepEqual(quadrantColors(decoded), QUADRANTS);
});

test('JPEG decodes to its size and close colors', async (t) => {
  const decoded = await decodeImage(encodeJpeg(picture), { field: 'avatar' });
  t.like(decoded, { width: 40, height: 30, format: 'jpeg' });
  quadrantColors(decoded).forEach((color, index) => t.true(isCloseTo(color, QUADRANTS[index] as Rgba, 24), `quadrant ${index}: ${color.join(',')}`));
});

test('GIF decodes to its size and exact palette colors', async (t) => {
  const indices = new Uint8Array(40 * 30);
  for (let y = 0; y < 30; y += 1) for (let x = 0; x < 40; x += 1) indices[y * 40 + x] = (y < 15 ? 0 : 2) + (x < 20 ? 0 : 1);
  const gif = buildGif({ width: 40, height: 30, palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]], frames: [{ indices, width: 40, height: 30 }] });
  const decoded = await decodeImage(gif, { field: 'avatar' });
  t.like(decoded, { width: 40, height: 30, format: 'gif' });
  t.deepEqual(quadrantColors(decoded), QUADRANTS);
});

test('lossless WebP decodes to a Canvas with exact colors', async (t) => {
  const decoded = await decodeImage(await encodeWebp(picture, { lossless: true }), { field: 'avatar' });
  t.like(decoded, { width: 40, height: 30, format: 'webp' });
  t.true(decoded.source instanceof Canvas);
  t.deepEqual(quadrantColors(decoded), QUADRANTS);
});

test('lossy WebP decodes with close colors', async (t) => {
  const decoded = await decodeImage(await encodeWebp(picture, { lossless: false }), { field: 'avatar' });
  t.like(decoded, { width: 40, height: 30, format: 'webp' });
  quadrantColors(decoded).forEach((color, index) => t.true(isCloseTo(color, QUADRANTS[index] as Rgba, 24), `quadrant ${index}: ${color.join(',')}`));
});

test('lossy WebP with an alpha plane (VP8X + ALPH) keeps its transparency', async (t) => {
  const translucent = solidCanvas(16, 16, [0, 0, 255, 128]);
  const webp = await encodeWebp(translucent, { lossless: false });
  t.deepEqual(parseWebpChunks(webp).map((chunk) => chunk.fourcc), ['VP8X', 'ALPH', 'VP8 ']);
  const [, , blue = 0, alpha = 0] = pixelAt(await decodeImage(webp, { field: 'avatar' }), 8, 8);
  t.true(Math.abs(alpha - 128) <= 3, `alpha ${alpha}`);
  t.true(blue > 200, `blue ${blue}`);
});

test('bytes that are a view into a larger buffer (pooled, non-zero offset) decode from their own range', async (t) => {
  for (const bytes of [encodePng(picture), await encodeWebp(picture, { lossless: true })]) {
    const pool = Buffer.concat([Buffer.alloc(33, 0xee), bytes, Buffer.alloc(17, 0xee)]);
    const view = pool.subarray(33, 33 + bytes.length);
    t.deepEqual(quadrantColors(await decodeImage(view, { field: 'avatar' })), QUADRANTS);
  }
});

/** The PNG with its IDAT payload overwritten, and the CRC recomputed so only the zlib stream is wrong. */
function pngWithCorruptIdat(): Buffer {
  const chunks = parsePngChunks(encodePng(picture)).map((chunk) => {
    if (chunk.type !== 'IDAT') return chunk.raw;
    const data = Buffer.from(chunk.data).fill(0xab, 10, chunk.data.length - 10);
    return pngChunk('IDAT', data);
  });
  return Buffer.concat([PNG_SIGNATURE, ...chunks]);
}

test('a PNG with a corrupt IDAT (valid CRC, broken zlib data) is corrupt, with a generic message', async (t) => {
  const error = await rejectsWithCardImageError(t, decodeImage(pngWithCorruptIdat(), { field: 'customBackground' }), 'corrupt', 'customBackground');
  t.is(error?.message, 'customBackground: the image could not be decoded; it may be damaged');
});

test('a PNG whose IDAT fails its CRC is corrupt', async (t) => {
  const png = Buffer.from(encodePng(picture));
  const idatData = png.indexOf('IDAT', 0, 'latin1') + 4;
  png.writeUInt8((png[idatData + 4] as number) ^ 0xff, idatData + 4); // a data byte, CRC left as it was
  await rejectsWithCardImageError(t, decodeImage(png, { field: 'avatar' }), 'corrupt', 'avatar');
});

test('a lossless WebP whose bitstream is garbage after a valid header is corrupt', async (t) => {
  const webp = Buffer.from(await encodeWebp(picture, { lossless: true }));
  webp.fill(0xff, 12 + 8 + 5); // keep RIFF, chunk header and the 5-byte VP8L header
  await rejectsWithCardImageError(t, decodeImage(webp, { field: 'customBadges.3' }), 'corrupt', 'customBadges.3');
});

test('a GIF whose LZW data holds an impossible code is corrupt', async (t) => {
  // Minimum code size 7: codes are 8 bits; after a clear (128) the first code must be a literal, not 200.
  const badData = Buffer.from([0x07, 0x03, 0x80, 0xc8, 0xc9, 0x00]);
  const valid = buildGif({ width: 4, height: 4, palette: [[255, 0, 0]], frames: [{ indices: new Uint8Array(16), width: 4, height: 4 }] });
  const goodData = gifImageData(new Uint8Array(16));
  const bad = Buffer.from(valid.toString('latin1').replace(goodData.toString('latin1'), badData.toString('latin1')), 'latin1');
  t.not(bad.length, valid.length);
  await rejectsWithCardImageError(t, decodeImage(bad, { field: 'avatar' }), 'corrupt', 'avatar');
});

test('every refusal names the field it was given, whichever stage refused', async (t) => {
  const cases: [field: string, reason: CardImageErrorReason, bytes: Buffer][] = [
    ['customBackground', 'unsupported_format', Buffer.from('<html></html>')],
    ['customBadges.2', 'corrupt', encodePng(picture).subarray(0, 40)], // header stage
    ['avatar', 'too_large', Buffer.concat([PNG_SIGNATURE, ihdrChunk(9000, 9000), pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1])), pngChunk('IEND', Buffer.alloc(0))])], // limits stage
    ['banner', 'corrupt', encodeJpeg(picture).subarray(0, 400)], // pixel stage, cut short
    ['avatarDecoration', 'corrupt', pngWithCorruptIdat()], // decoder stage
  ];
  for (const [field, reason, bytes] of cases) {
    const error = await rejectsWithCardImageError(t, decodeImage(bytes, { field }), reason, field);
    t.true(error instanceof CardImageError);
  }
});
