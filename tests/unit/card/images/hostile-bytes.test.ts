import test from 'ava';
import { CardImageError } from '../../../../packages/card/src/images/card-image-error.ts';
import { decodeImage } from '../../../../packages/card/src/images/decode-image.ts';
import { BLUE, buildAnimatedWebp, buildApng, buildGif, compressedGifImageData, encodeJpeg, encodePng, encodeWebp, GREEN, quadrantCanvas, RED, solidCanvas, WHITE } from '../../../fixtures/images.ts';

/** xorshift32: the same mutations on every run, so a failure can be replayed. */
function seededRandom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

async function seedImages(): Promise<[name: string, bytes: Buffer][]> {
  const picture = quadrantCanvas(24, 16, [RED, GREEN, BLUE, WHITE]);
  const translucentFrame = await encodeWebp(solidCanvas(8, 8, [0, 255, 0, 128]), { lossless: false });
  const losslessFrame = await encodeWebp(solidCanvas(8, 8, RED), { lossless: true });
  const stripes = new Uint8Array(24 * 16).map((_, index) => index % 4);
  return [
    ['PNG', encodePng(picture)],
    ['JPEG', encodeJpeg(picture)],
    ['progressive JPEG', picture.toBuffer('image/jpeg', { progressive: true })],
    ['lossless WebP', await encodeWebp(picture, { lossless: true })],
    ['lossy WebP', await encodeWebp(picture, { lossless: false })],
    ['animated WebP', buildAnimatedWebp(16, 16, [{ still: translucentFrame, width: 8, height: 8, x: 2, y: 2 }, { still: losslessFrame, width: 8, height: 8 }])],
    [
      'interlaced animated GIF',
      buildGif({
        width: 24,
        height: 16,
        palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]],
        frames: [{ indices: stripes, imageData: compressedGifImageData(stripes), width: 24, height: 16, interlaced: true, transparentIndex: 3 }, { indices: stripes, width: 24, height: 16 }],
      }),
    ],
    ['APNG', buildApng(solidCanvas(8, 8, RED), solidCanvas(8, 8, BLUE))],
  ];
}

/** Random byte changes anywhere, changes in the header region, and truncation at a random length. */
function mutate(bytes: Buffer, random: (below: number) => number): Buffer {
  const copy = Buffer.from(bytes);
  switch (random(3)) {
    case 0:
      for (let count = 1 + random(4); count > 0; count -= 1) copy[random(copy.length)] = random(256);
      return copy;
    case 1:
      for (let count = 1 + random(4); count > 0; count -= 1) copy[random(Math.min(copy.length, 64))] = [0x00, 0xff, 0x7f, 0x80, random(256)][random(5)] as number;
      return copy;
    default:
      return copy.subarray(0, random(copy.length));
  }
}

test('mutated and truncated images either decode or are refused with a CardImageError, never anything else', async (t) => {
  const random = seededRandom(0x5eed);
  const outcomes = new Map<string, number>();
  for (const [name, bytes] of await seedImages()) {
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const mutated = mutate(bytes, random);
      try {
        const decoded = await decodeImage(mutated, { field: 'customBadges.4' });
        t.true(decoded.width > 0 && decoded.height > 0);
        outcomes.set('decoded', (outcomes.get('decoded') ?? 0) + 1);
      } catch (error) {
        if (!(error instanceof CardImageError)) {
          t.fail(`${name}, attempt ${attempt}: ${String(error)}\n${mutated.toString('base64')}`);
          return;
        }
        t.is(error.field, 'customBadges.4');
        outcomes.set(error.reason, (outcomes.get(error.reason) ?? 0) + 1);
      }
    }
  }
  // The mutations reach every outcome, so the test exercises the decoders and not only the sniffer.
  t.deepEqual([...outcomes.keys()].sort(), ['corrupt', 'decoded', 'too_large', 'unsupported_format']);
});
