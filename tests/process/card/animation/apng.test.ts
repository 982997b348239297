import { renderPoolEnvironmentShape } from '@utility-api/render-engine/config';
import test from 'ava';
import sharp, { type Sharp } from 'sharp';
import { renderAnimatedCard } from '../../../../packages/card/src/index.ts';
import { CardImageError } from '../../../../packages/card/src/images/card-image-error.ts';
import { checkAnimation } from '../../../../packages/card/src/images/decode-animation.ts';
import { CardPixelBudget, decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { BLUE, buildApngFrames, GREEN, parsePngChunks, PNG_SIGNATURE, pngChunk, RED, type Rgba, solidCanvas, solidPng, WHITE } from '../../../fixtures/images.ts';
import { webpmuxInfo } from '../../../support/card/animation/animated-fixtures.ts';

/** The worker's default budget for an animated card (RENDER_ANIMATED_TIME_BUDGET_MS). */
const ANIMATED_TIME_BUDGET_MS = renderPoolEnvironmentShape.RENDER_ANIMATED_TIME_BUDGET_MS.parse(undefined);

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };
const untouched = (image: Sharp) => image;
const shade = (index: number): Rgba => [(index * 37) % 256, (index * 91) % 256, (index * 13) % 256, 255];

/** The RGBA of pixel (x, y) of a canvas frame. */
const pixel = (canvas: { getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } }, x: number, y: number): number[] => [
  ...canvas.getContext('2d').getImageData(x, y, 1, 1).data,
];

test("libvips alone sees one page in an APNG (sharp 0.35's libspng reads the default image only)", async (t) => {
  const apng = buildApngFrames([
    { canvas: solidCanvas(12, 12, GREEN), delay: [1, 10] },
    { canvas: solidCanvas(12, 12, WHITE), delay: [1, 10] },
  ]);
  t.is((await sharp(apng, { animated: true }).metadata()).pages ?? 1, 1);
});

test('an APNG decoration animates: the WebP frame times are the fcTL delays (0/0 shows for 100 ms, denominator 0 means 100)', async (t) => {
  const colors: Rgba[] = [
    [230, 40, 40, 200],
    [40, 200, 60, 200],
    [40, 60, 230, 200],
    [240, 220, 40, 200],
  ];
  const delays: [number, number][] = [
    [1, 5],
    [3, 10],
    [40, 0],
    [0, 0],
  ];
  const avatarDecoration = buildApngFrames(colors.map((color, index) => ({ canvas: solidCanvas(96, 96, color), delay: delays[index]! })));
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatarDecoration }, options: {} }, { format: 'webp' });
  t.true(card.animated);
  t.deepEqual(card.warnings, []);
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, [200, 300, 400, 100]);
});

test('an APNG custom background animates with its own frame times', async (t) => {
  const background = buildApngFrames([
    { canvas: solidCanvas(300, 100, RED), delay: [1, 2] },
    { canvas: solidCanvas(300, 100, BLUE), delay: [1, 4] },
  ]);
  const card = await renderAnimatedCard({ profile: PROFILE, options: { customBackground: 'https://example.com/b.png' }, images: { background } }, { format: 'webp' });
  t.true(card.animated);
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, [500, 250]);
});

test('an APNG avatar animates too', async (t) => {
  const avatar = buildApngFrames([
    { canvas: solidCanvas(64, 64, RED), delay: [1, 10] },
    { canvas: solidCanvas(64, 64, GREEN), delay: [2, 10] },
  ]);
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatar }, options: {} }, { format: 'webp' });
  t.true(card.animated);
  t.deepEqual(webpmuxInfo(card.bytes).durationsMs, [100, 200]);
});

test('partial APNG frames are composited with their dispose and blend operations', async (t) => {
  const apng = buildApngFrames([
    { canvas: solidCanvas(8, 8, RED), delay: [1, 10] },
    // Blue square at (4,4), drawn over what is there, then cleared (dispose BACKGROUND).
    { canvas: solidCanvas(4, 4, BLUE), delay: [1, 10], x: 4, y: 4, dispose: 1 },
    // Half-transparent white over red at (0,0), blended OVER, then put back (dispose PREVIOUS).
    { canvas: solidCanvas(2, 2, [255, 255, 255, 128]), delay: [1, 10], blend: 1, dispose: 2 },
    { canvas: solidCanvas(1, 1, GREEN), delay: [1, 10], x: 7, y: 0 },
  ]);
  const frames = (await (await checkAnimation(apng, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 64 }))?.())?.frames;
  t.is(frames?.length, 4);
  const [first, second, third, fourth] = frames!;
  t.deepEqual(pixel(first!, 5, 5), [255, 0, 0, 255]);
  t.deepEqual(pixel(second!, 5, 5), [0, 0, 255, 255]);
  t.deepEqual(pixel(second!, 0, 0), [255, 0, 0, 255], 'dispose NONE of frame one keeps the canvas under frame two');
  t.deepEqual(pixel(third!, 5, 5), [0, 0, 0, 0], 'frame two was disposed to transparent');
  const blended = pixel(third!, 0, 0);
  t.true(Math.abs(blended[1]! - 128) <= 2 && blended[0] === 255 && blended[3] === 255, `OVER blend: ${blended.join(',')}`);
  t.deepEqual(pixel(fourth!, 0, 0), [255, 0, 0, 255], 'frame three was disposed to what was under it');
  t.deepEqual(pixel(fourth!, 7, 0), [0, 255, 0, 255]);
});

test('hostile: an acTL that claims 100000 frames is not trusted: only frames with data are read', async (t) => {
  const apng = buildApngFrames(
    [
      { canvas: solidCanvas(16, 16, RED), delay: [1, 10] },
      { canvas: solidCanvas(16, 16, BLUE), delay: [1, 10] },
    ],
    { declaredFrames: 100_000 },
  );
  const animation = await (await checkAnimation(apng, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 256 }))?.();
  t.is(animation?.frames.length, 2);
});

test('hostile: frames beyond the pixel budget are cut, never refused; with none left the APNG is drawn still', async (t) => {
  const apng = buildApngFrames(Array.from({ length: 12 }, (_, index) => ({ canvas: solidCanvas(40, 30, shade(index)), delay: [1, 10] as [number, number] })));
  const budget = new CardPixelBudget(40 * 30 * 5 + 7);
  const animation = await (await checkAnimation(apng, { field: 'avatar', budget, transform: untouched, drawnPixels: 40 * 30 }))?.();
  t.is(animation?.frames.length, 6);
  t.throws(() => budget.charge('customBadges.0', 1, 8), { instanceOf: CardImageError });
  t.is(await checkAnimation(apng, { field: 'avatar', budget: new CardPixelBudget(10), transform: untouched, drawnPixels: 40 * 30 }), undefined);
});

test('hostile: 400 APNG frames are cut to the 10 s the card plays and sampled, quickly', async (t) => {
  const apng = buildApngFrames(Array.from({ length: 400 }, (_, index) => ({ canvas: solidCanvas(128, 128, shade(index)), delay: [2, 100] as [number, number] })));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatarDecoration: apng }, options: {} }, { format: 'webp' });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  t.true(card.animated);
  t.true(card.frames <= 60);
  t.log(`${card.frames} frames in ${ms.toFixed(0)} ms, ${cpuMs.toFixed(0)} ms of CPU`);
  // Within the CPU time a render worker is given for an animated card (it is killed past it); CPU,
  // as the pool counts it, not wall time a loaded machine stretches. A quiet machine takes about a second.
  t.true(cpuMs < ANIMATED_TIME_BUDGET_MS, `${cpuMs} ms of CPU`);
});

test('hostile: a frame region outside the image is corrupt; a huge IHDR is refused as too_large before any frame', async (t) => {
  const outside = buildApngFrames([
    { canvas: solidCanvas(8, 8, RED), delay: [1, 10] },
    { canvas: solidCanvas(8, 8, BLUE), delay: [1, 10], x: 4 },
  ]);
  await t.throwsAsync(checkAnimation(outside, { field: 'avatarDecoration', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 64 }), {
    instanceOf: CardImageError,
    message: /avatarDecoration/,
  });
  const chunks = parsePngChunks(
    buildApngFrames([
      { canvas: solidCanvas(8, 8, RED), delay: [1, 10] },
      { canvas: solidCanvas(8, 8, BLUE), delay: [1, 10] },
    ]),
  );
  const ihdr = Buffer.from(chunks[0]!.data);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  const huge = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), ...chunks.slice(1).map((chunk) => chunk.raw)]);
  const error = await t.throwsAsync(decodeImage(huge, { field: 'avatarDecoration' }), { instanceOf: CardImageError });
  t.is(error?.reason, 'too_large');
  const card = await renderAnimatedCard({ profile: { ...PROFILE, avatarDecoration: huge }, options: {} }, { format: 'webp' });
  t.false(card.animated);
});

test('hostile: a frame whose data inflates past its declared size is bounded by libvips (decoded to its size or corrupt)', async (t) => {
  const big = parsePngChunks(solidPng(1500, 1500, WHITE));
  const apng = buildApngFrames([
    { canvas: solidCanvas(8, 8, RED), delay: [1, 10] },
    { canvas: solidCanvas(8, 8, BLUE), delay: [1, 10] },
  ]);
  const chunks = parsePngChunks(apng);
  const bomb = Buffer.concat([
    PNG_SIGNATURE,
    ...chunks
      .filter((chunk) => chunk.type !== 'fdAT' && chunk.type !== 'IEND')
      .map((chunk) => chunk.raw),
    ...big.filter((chunk) => chunk.type === 'IDAT').map((chunk, index) => pngChunk('fdAT', Buffer.concat([Buffer.from([0, 0, 0, 2 + index]), chunk.data]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  try {
    const animation = await (await checkAnimation(bomb, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 64 }))?.();
    t.log(animation ? `decoded ${animation.frames.length} frames` : "still");
    t.true(animation === undefined || animation.frames.every((frame) => frame.width === 8 && frame.height === 8));
  } catch (error) {
    t.log(String(error));
    t.true(error instanceof CardImageError && error.reason === 'corrupt', String(error));
  }
});

test('hostile: 300 mutated APNGs (partial frames, OVER/PREVIOUS) are animated, drawn still, or refused with a CardImageError; never a crash', async (t) => {
  const source = buildApngFrames([
    { canvas: solidCanvas(16, 16, RED), delay: [1, 10] },
    { canvas: solidCanvas(8, 8, [0, 0, 255, 128]), delay: [1, 10], x: 4, y: 4, blend: 1, dispose: 2 },
    { canvas: solidCanvas(4, 4, GREEN), delay: [0, 0], x: 12, y: 12, dispose: 1 },
  ]);
  let seed = 0x1234_5678;
  const random = (below: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed % below;
  };
  const outcomes = { animated: 0, still: 0, refused: 0 };
  for (let round = 0; round < 300; round += 1) {
    const copy = Buffer.from(source);
    if (round % 3 === 2) {
      const cut = copy.subarray(0, random(copy.length));
      await run(cut);
      continue;
    }
    for (let count = 1 + random(4); count > 0; count -= 1) copy[random(copy.length)] = random(256);
    await run(copy);
  }
  async function run(bytes: Buffer): Promise<void> {
    try {
      const decode = await checkAnimation(bytes, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 256 });
      if (!decode) {
        outcomes.still += 1;
        return;
      }
      const animation = await decode();
      // Every frame has the size the (possibly mutated) IHDR declares, which libvips accepted.
      const [first] = animation.frames;
      t.true(animation.frames.every((frame) => frame.width === first?.width && frame.height === first.height));
      outcomes.animated += 1;
    } catch (error) {
      if (!(error instanceof CardImageError)) throw error;
      outcomes.refused += 1;
    }
  }
  t.log(JSON.stringify(outcomes));
  t.pass();
});
