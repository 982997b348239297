import { deflateSync } from 'node:zlib';
import { CARD_PIXEL_BUDGET, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_JPEG_SCANS } from '@utility-api/render-jobs';
import test from 'ava';
import { CardImageError } from '../../../../packages/card/src/images/card-image-error.ts';
import { assertWithinImageLimits, CardPixelBudget, decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { rejectsWithCardImageError, throwsCardImageError } from '../../../support/card/images/card-image-assertions.ts';
import { buildGif, encodeJpeg, encodePng, findJpegMarker, grayscaleBombPng, ihdrChunk, parsePngChunks, peakMemoryGrowthMb, PNG_SIGNATURE, pngChunk, RED, riffChunk, riffFile, solidCanvas, solidGifFrame, vp8xChunk, withJpegFrameSize } from '../../../fixtures/images.ts';

function countOccurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

// Serial: these tests measure the process's peak memory, which concurrent decodes would blur.

/** A structurally complete PNG whose IHDR (with a valid CRC) claims `width` x `height`; its data is one tiny row. */
function pngClaiming(width: number, height: number): Buffer {
  const idat = pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]));
  return Buffer.concat([PNG_SIGNATURE, ihdrChunk(width, height), idat, pngChunk('IEND', Buffer.alloc(0))]);
}

/** No more than this growth of peak memory is allowed while refusing a bomb (a decode of one would take 1.6 GB). */
const REFUSAL_MEMORY_BUDGET_MB = 100;

test.serial('a PNG header declaring 30000x30000 (valid CRC) is too_large, refused before decoding', async (t) => {
  const png = pngClaiming(30000, 30000);
  const growth = await peakMemoryGrowthMb(async () => {
    const error = await rejectsWithCardImageError(t, decodeImage(png, { field: 'customBackground' }), 'too_large', 'customBackground');
    t.is(error?.message, 'customBackground: the image is 30000x30000 pixels; the limit is 16 megapixels');
  });
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
});

test.serial('a real 50 KB PNG bomb that decodes to 1.6 GB is refused without the memory growing', async (t) => {
  const bomb = grayscaleBombPng(20000);
  t.true(bomb.length < 100_000, `${bomb.length} bytes`);
  const growth = await peakMemoryGrowthMb(() => rejectsWithCardImageError(t, decodeImage(bomb, { field: 'customBadges.2' }), 'too_large', 'customBadges.2'));
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
});

test.serial('a JPEG whose SOF declares 40000x40000 is too_large', async (t) => {
  const jpeg = withJpegFrameSize(encodeJpeg(solidCanvas(16, 16, RED)), 40000, 40000);
  const growth = await peakMemoryGrowthMb(() => rejectsWithCardImageError(t, decodeImage(jpeg, { field: 'avatar' }), 'too_large', 'avatar'));
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
});

test.serial('a GIF with a 65535x65535 logical screen and a 1x1 frame never allocates the screen', async (t) => {
  // libvips (libnsgif) sizes such a GIF by its frame, as browsers do; either answer is safe, a 4 GB canvas is not.
  const gif = buildGif({ width: 65535, height: 65535, palette: [[255, 0, 0]], frames: [solidGifFrame(1, 1, 0)] });
  const growth = await peakMemoryGrowthMb(async () => {
    const outcome = await decodeImage(gif, { field: 'banner' }).catch((error: unknown) => error);
    if (outcome instanceof CardImageError) t.like(outcome, { reason: 'too_large', field: 'banner' });
    else t.like(outcome, { width: 1, height: 1 });
  });
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
});

test.serial('a GIF whose first frame is far larger than its screen is judged by the frame', async (t) => {
  const gif = buildGif({ width: 1, height: 1, palette: [[255, 0, 0]], frames: [{ indices: new Uint8Array(1), width: 60000, height: 60000 }] });
  await rejectsWithCardImageError(t, decodeImage(gif, { field: 'banner' }), 'too_large', 'banner');
});

test.serial('a WebP whose VP8X canvas claims 20000x20000 is refused before anything is allocated', async (t) => {
  // libwebp refuses the header itself (its image chunk does not match the canvas), so the reason is `corrupt`.
  const webp = riffFile([vp8xChunk(0, 20000, 20000), riffChunk('VP8L', Buffer.alloc(5))]);
  const growth = await peakMemoryGrowthMb(() => rejectsWithCardImageError(t, decodeImage(webp, { field: 'avatarDecoration' }), 'corrupt', 'avatarDecoration'));
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
});

test.serial('a side longer than 8192 px is too_large even when the pixel count is small', async (t) => {
  const error = await rejectsWithCardImageError(t, decodeImage(pngClaiming(9000, 10), { field: 'customBadges.0' }), 'too_large', 'customBadges.0');
  t.is(error?.message, `customBadges.0: the image is 9000x10 pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels`);
});

test.serial('the limits are inclusive: exactly 16 megapixels and exactly 8192 px pass', (t) => {
  t.is(MAX_IMAGE_PIXELS, 16_000_000);
  t.notThrows(() => assertWithinImageLimits({ width: 4000, height: 4000 }, 'avatar'));
  t.notThrows(() => assertWithinImageLimits({ width: MAX_IMAGE_SIDE, height: 1953 }, 'avatar'));
  throwsCardImageError(t, () => assertWithinImageLimits({ width: 4001, height: 4000 }, 'avatar'), 'too_large', 'avatar');
  throwsCardImageError(t, () => assertWithinImageLimits({ width: MAX_IMAGE_SIDE + 1, height: 1 }, 'avatar'), 'too_large', 'avatar');
});

test.serial('the card pixel budget is charged with declared sizes, and the image that overflows it is refused by name', async (t) => {
  const budget = new CardPixelBudget(25_000);
  const png = encodePng(solidCanvas(100, 100, RED));
  t.is((await decodeImage(png, { field: 'customBackground', budget })).width, 100);
  t.is((await decodeImage(png, { field: 'customBadges.0', budget })).width, 100);
  const error = await rejectsWithCardImageError(t, decodeImage(png, { field: 'customBadges.1', budget }), 'too_large', 'customBadges.1');
  t.is(error?.message, "customBadges.1: the card's images together exceed 25,000 pixels, the limit for one card");
  // The budget is charged before decoding: this header's data is one row, so only a refusal before decoding is `too_large`.
  const megapixel = new CardPixelBudget(1_000_000);
  await rejectsWithCardImageError(t, decodeImage(pngClaiming(2000, 1000), { field: 'avatar', budget: megapixel }), 'too_large', 'avatar');
  t.true(CARD_PIXEL_BUDGET >= 3 * MAX_IMAGE_PIXELS - 8_000_000, 'a photo background and large badges fit');
});

test.serial('a nonsensical pixel budget is a programming error, not a CardImageError', (t) => {
  for (const total of [0, -5, 1.5, Number.NaN]) {
    const error = t.throws(() => new CardPixelBudget(total), { instanceOf: RangeError });
    t.false(error instanceof CardImageError);
  }
});

test.serial('PNG metadata chunks cost nothing: 300 zTXt chunks inflating to 2.4 GB are dropped unread', async (t) => {
  const inflated = deflateSync(Buffer.alloc(7_900_000, 0x41), { level: 9 });
  const texts = Array.from({ length: 300 }, (_, index) => pngChunk('zTXt', Buffer.concat([Buffer.from(`key${index}\0\0`, 'latin1'), inflated])));
  const chunks = parsePngChunks(encodePng(solidCanvas(2, 2, RED))).map((chunk) => chunk.raw);
  const bomb = Buffer.concat([PNG_SIGNATURE, chunks[0]!, ...texts, ...chunks.slice(1)]);
  let decoded: Awaited<ReturnType<typeof decodeImage>> | undefined;
  const growth = await peakMemoryGrowthMb(async () => {
    decoded = await decodeImage(bomb, { field: 'customBackground' });
  });
  t.true(growth < REFUSAL_MEMORY_BUDGET_MB, `peak memory grew ${growth.toFixed(0)} MB`);
  t.like(decoded, { width: 2, height: 2, format: 'png' });
});

test.serial(`a JPEG with more than ${MAX_JPEG_SCANS} scans is too_large (progressive-scan CPU bomb)`, async (t) => {
  const jpeg = encodeJpeg(solidCanvas(8, 8, RED));
  const sos = findJpegMarker(jpeg, 0xda);
  const eoi = jpeg.length - 2;
  const scan = jpeg.subarray(sos, eoi);
  const manyScans = Buffer.concat([jpeg.subarray(0, sos), ...Array.from({ length: MAX_JPEG_SCANS + 1 }, () => scan), jpeg.subarray(eoi)]);
  const error = await rejectsWithCardImageError(t, decodeImage(manyScans, { field: 'customBackground' }), 'too_large', 'customBackground');
  t.regex(error?.message ?? '', /scans/);
  const progressive = solidCanvas(8, 8, RED).toBuffer('image/jpeg', { progressive: true });
  t.true(countOccurrences(progressive, Buffer.from([0xff, 0xda])) > 1, 'the control JPEG is progressive');
  t.is((await decodeImage(progressive, { field: 'customBackground' })).width, 8);
});
