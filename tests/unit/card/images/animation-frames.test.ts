/**
 * Many-frame GIF and WebP are cut to the frames a card uses before libvips reads them
 * (packages/card/src/images/animation-frames.ts): the frame counts here are the bytes libvips is
 * handed, read back by libvips itself (sharp's `pages`) and by test-side parsers.
 */
import test, { type ExecutionContext } from 'ava';
import sharp, { type Sharp } from 'sharp';
import { MAX_SOURCE_FRAMES, walkGifBlocks } from '@utility-api/render-jobs';
import { keepFirstFrames } from '../../../../packages/card/src/images/animation-frames.ts';
import { checkAnimation } from '../../../../packages/card/src/images/decode-animation.ts';
import { CardPixelBudget, decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { readApngLayout } from '../../../../packages/card/src/images/decode-apng.ts';
import { ANIMATION_CAPS } from '../../../../packages/card/src/animation/timeline.ts';
import { rejectsWithCardImageError, throwsCardImageError } from '../../../support/card/images/card-image-assertions.ts';
import { BLUE, buildAnimatedWebp, buildApngFrames, buildGif, countGifImages, countWebpFrames, encodeWebp, manyFrameGif, manyFrameWebp, parseWebpChunks, pixelAt, RED, type Rgb, riffChunk, riffFile, solidCanvas, solidGifFrame, vp8xChunk } from '../../../fixtures/images.ts';

const untouched = (image: Sharp) => image;
const pagesSeenByLibvips = async (bytes: Buffer): Promise<number> => (await sharp(bytes, { animated: true }).metadata()).pages ?? 1;
const RED_BLUE: Rgb[] = [[255, 0, 0], [0, 0, 255]];

/** Cut to 1 frame (a still card) and to the cap (an animated one): libvips and a test-side parser count the same. */
async function assertCutForLibvips(t: ExecutionContext, bytes: Buffer, format: 'gif' | 'webp', countFrames: (bytes: Buffer) => number): Promise<void> {
  for (const count of [1, MAX_SOURCE_FRAMES]) {
    const cut = keepFirstFrames(bytes, format, 'customBackground', count);
    t.is(countFrames(cut), count);
    t.is(await pagesSeenByLibvips(cut), count);
  }
}

test('the frame cap loses no frame a card can play: 10 s of the shortest frames fit in it', (t) => {
  t.true(MAX_SOURCE_FRAMES * ANIMATION_CAPS.minFrameMs >= ANIMATION_CAPS.maxDurationMs);
});

// --------------------------------------------------------------------------------------- WebP

for (const frames of [20_000, 100_000]) {
  test.serial(`a ${frames.toLocaleString('en-US')}-frame WebP reaches libvips as its first frame for a still card, as ${MAX_SOURCE_FRAMES} frames for an animated one`, async (t) => {
    const webp = await manyFrameWebp(frames);
    t.is(countWebpFrames(webp), frames);

    await assertCutForLibvips(t, webp, 'webp', countWebpFrames);

    const decoded = await decodeImage(webp, { field: 'customBackground' });
    t.like(decoded, { width: 64, height: 64, format: 'webp' });
    t.deepEqual(pixelAt(decoded, 32, 32), RED, 'the first frame');

    // 20 ms frames: the 10 s a card plays are exactly the cap's 500 frames.
    const animation = await (await checkAnimation(webp, { field: 'customBackground', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 64 * 64 }))?.();
    t.is(animation?.frames.length, MAX_SOURCE_FRAMES);
    t.true(animation?.delaysMs.every((delay) => delay === 20));
  });
}

test('an animated WebP keeps VP8X, ANIM, its first frames and EXIF; ICCP, XMP and unknown chunks go, with their VP8X flags', async (t) => {
  const [red, blue] = await Promise.all([RED, BLUE].map((color) => encodeWebp(solidCanvas(8, 8, color), { lossless: true })));
  const built = buildAnimatedWebp(8, 8, [{ still: red!, width: 8, height: 8 }, { still: blue!, width: 8, height: 8 }]);
  const chunks = parseWebpChunks(built);
  const exif = riffChunk('EXIF', Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'));
  const webp = riffFile([
    vp8xChunk(0x02 | 0x10 | 0x20 | 0x08 | 0x04, 8, 8),
    riffChunk('ICCP', Buffer.alloc(1000)),
    ...chunks.filter((chunk) => chunk.fourcc !== 'VP8X').map((chunk) => chunk.raw),
    riffChunk('ABCD', Buffer.alloc(5)),
    exif,
    riffChunk('XMP ', Buffer.alloc(3000)),
  ]);
  const cut = keepFirstFrames(webp, 'webp', 'avatar', 1);
  t.deepEqual(parseWebpChunks(cut).map((chunk) => chunk.fourcc), ['VP8X', 'ANIM', 'ANMF', 'EXIF']);
  t.is(parseWebpChunks(cut)[0]!.data[0], 0x02 | 0x10 | 0x08, 'animation, alpha and EXIF flags only');
  t.is(cut.readUInt32LE(4), cut.length - 8, 'the RIFF size is the new length');
  t.deepEqual(pixelAt(await decodeImage(cut, { field: 'avatar' }), 4, 4), RED);
  // Nothing to drop and no frame past the count: the same bytes, not a copy.
  t.is(keepFirstFrames(built, 'webp', 'avatar', 2), built);
  const still = await encodeWebp(solidCanvas(8, 8, RED), { lossless: false });
  t.is(keepFirstFrames(still, 'webp', 'avatar', 1), still, 'a still WebP is left as it is');
});

test('a WebP frame outside its canvas is corrupt, a canvas over the limits too_large', async (t) => {
  const red = await encodeWebp(solidCanvas(8, 8, RED), { lossless: true });
  const outside = buildAnimatedWebp(8, 8, [{ still: red, width: 8, height: 8 }, { still: red, width: 8, height: 8, x: 2 }]);
  throwsCardImageError(t, () => keepFirstFrames(outside, 'webp', 'customBackground', MAX_SOURCE_FRAMES), 'corrupt', 'customBackground');
  t.is(countWebpFrames(keepFirstFrames(outside, 'webp', 'customBackground', 1)), 1, 'a still card never reads the second frame');

  const huge = Buffer.from(buildAnimatedWebp(8, 8, [{ still: red, width: 8, height: 8 }]));
  huge.writeUIntLE(20_000 - 1, 12 + 8 + 4, 3);
  huge.writeUIntLE(20_000 - 1, 12 + 8 + 7, 3);
  await rejectsWithCardImageError(t, decodeImage(huge, { field: 'customBadges.0' }), 'too_large', 'customBadges.0');
});

test('a WebP cut before its first frame is whole is corrupt; one cut later keeps its whole frames', async (t) => {
  const webp = await manyFrameWebp(10);
  const chunks = parseWebpChunks(webp);
  const firstFrameEnd = 12 + chunks.slice(0, 3).reduce((total, chunk) => total + chunk.raw.length, 0);
  await rejectsWithCardImageError(t, decodeImage(webp.subarray(0, firstFrameEnd - 3), { field: 'avatar' }), 'corrupt', 'avatar');
  const cutInFrameFour = webp.subarray(0, firstFrameEnd + 2 * chunks[3]!.raw.length + 5);
  t.is(countWebpFrames(keepFirstFrames(cutInFrameFour, 'webp', 'avatar', MAX_SOURCE_FRAMES)), 3);
  const noFrames = riffFile([vp8xChunk(0x02, 8, 8), riffChunk('ANIM', Buffer.alloc(6))]);
  throwsCardImageError(t, () => keepFirstFrames(noFrames, 'webp', 'avatar', 1), 'corrupt', 'avatar');
});

// ---------------------------------------------------------------------------------------- GIF

test('a 200,000-frame GIF reaches libvips as its first frame, or as the capped frames', async (t) => {
  const gif = manyFrameGif(200_000);
  t.is(countGifImages(gif), 200_000);
  await assertCutForLibvips(t, gif, 'gif', countGifImages);
  t.deepEqual(pixelAt(await decodeImage(gif, { field: 'customBadges.0' }), 8, 8), RED);
  const animation = await (await checkAnimation(gif, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 16 * 16 }))?.();
  t.is(animation?.frames.length, MAX_SOURCE_FRAMES);
});

test('GIF frames: the first may grow the canvas (within the limits), later ones must fit in it', (t) => {
  const grown = buildGif({ width: 4, height: 4, palette: RED_BLUE, frames: [solidGifFrame(4, 4, 0, { left: 4 }), solidGifFrame(8, 4, 1)] });
  t.is(countGifImages(keepFirstFrames(grown, 'gif', 'avatar', 2)), 2);
  const outside = buildGif({ width: 4, height: 4, palette: RED_BLUE, frames: [solidGifFrame(4, 4, 0), solidGifFrame(4, 4, 1, { top: 2 })] });
  throwsCardImageError(t, () => keepFirstFrames(outside, 'gif', 'avatar', 2), 'corrupt', 'avatar');
  t.is(countGifImages(keepFirstFrames(outside, 'gif', 'avatar', 1)), 1, 'a still card never reads the second frame');
  const tooWide = buildGif({ width: 4, height: 4, palette: RED_BLUE, frames: [solidGifFrame(1, 1, 0, { left: 9000 })] });
  throwsCardImageError(t, () => keepFirstFrames(tooWide, 'gif', 'customBackground', 1), 'too_large', 'customBackground');
});

test('a GIF damaged before its first image is corrupt; one damaged after the kept images is cut, one with fewer goes to libvips as it is', (t) => {
  const gif = buildGif({ width: 4, height: 4, palette: RED_BLUE, loop: true, frames: [solidGifFrame(4, 4, 0), solidGifFrame(4, 4, 1), solidGifFrame(4, 4, 0)] });
  const blocks = [...walkGifBlocks(gif)];
  const images = blocks.flatMap((block) => (block.kind === 'image-data' ? [block] : []));
  const loopExtension = blocks.find((block) => block.kind === 'extension')!;
  throwsCardImageError(t, () => keepFirstFrames(gif.subarray(0, loopExtension.start + 5), 'gif', 'avatar', 1), 'corrupt', 'avatar');
  throwsCardImageError(t, () => keepFirstFrames(Buffer.concat([gif.subarray(0, loopExtension.start), Buffer.from([0x3b])]), 'gif', 'avatar', 1), 'corrupt', 'avatar');
  throwsCardImageError(t, () => keepFirstFrames(Buffer.concat([gif.subarray(0, loopExtension.start), Buffer.from([0x99])]), 'gif', 'avatar', 1), 'corrupt', 'avatar');

  const cutInThird = gif.subarray(0, images[2]!.end - 2);
  const stillOfCut = keepFirstFrames(cutInThird, 'gif', 'avatar', 2);
  t.is(countGifImages(stillOfCut), 2);
  t.is(stillOfCut.at(-1), 0x3b, 'a trailer after the kept images');
  t.is(keepFirstFrames(cutInThird, 'gif', 'avatar', MAX_SOURCE_FRAMES), cutInThird, 'fewer frames than the cap: the same bytes');
  const garbage = Buffer.concat([gif.subarray(0, images[1]!.end), Buffer.from([0x99, 1, 2, 3])]);
  t.is(keepFirstFrames(garbage, 'gif', 'avatar', MAX_SOURCE_FRAMES), garbage);
  t.is(countGifImages(keepFirstFrames(garbage, 'gif', 'avatar', 1)), 1);
});

test('the GIF walker names every block in order and stops where the bytes stop being a GIF', (t) => {
  const gif = buildGif({ width: 4, height: 4, palette: RED_BLUE, loop: true, comment: 'hi', frames: [solidGifFrame(2, 3, 0, { left: 1, top: 1 })] });
  const blocks = [...walkGifBlocks(gif)];
  t.deepEqual(blocks.map((block) => block.kind), ['screen', 'extension', 'extension', 'extension', 'image', 'image-data', 'trailer']);
  t.like(blocks[4], { left: 1, top: 1, width: 2, height: 3 });
  t.like(blocks.at(-1), { start: gif.length - 1, end: gif.length });
  t.deepEqual([...walkGifBlocks(gif.subarray(0, blocks[4]!.start + 5))].map((block) => block.kind).slice(-2), ['extension', 'truncated']);
  t.like([...walkGifBlocks(Buffer.concat([gif.subarray(0, blocks[4]!.start), Buffer.from([0x00])]))].at(-1), { kind: 'invalid', start: blocks[4]!.start });
});

// ---------------------------------------------------------------------------------------- APNG

test(`an APNG's frames are read up to the cap (${MAX_SOURCE_FRAMES}), the rest never`, (t) => {
  const frame = { canvas: solidCanvas(2, 2, RED), delay: [1, 50] as [number, number] };
  const apng = buildApngFrames(Array.from({ length: MAX_SOURCE_FRAMES + 20 }, () => frame));
  t.is(readApngLayout(apng, 'avatar')?.frames.length, MAX_SOURCE_FRAMES);
});
