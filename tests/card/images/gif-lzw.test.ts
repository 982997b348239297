import test from 'ava';
import { decodeGifLzw, encodeGifLzwUncompressed } from '../../../packages/card/src/images/gif-lzw.ts';
import { decodeImage } from '../../../packages/card/src/images/index.ts';
import { allPixels, buildGif, compressedGifImageData, type Rgb } from './fixtures.ts';

/** Deterministic pixels with runs and noise over `symbols` values (xorshift32), enough to fill the 4096-entry table several times. */
function patternedIndices(count: number, symbols: number): Uint8Array {
  const pixels = new Uint8Array(count);
  let state = 0x9e3779b9;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  for (let index = 0; index < count; index += 1) {
    pixels[index] = index > 0 && next() % 3 === 0 ? (pixels[index - 1] as number) : next() % symbols;
  }
  return pixels;
}

/** The LZW payload of image data: sub-blocks joined, minimum code size byte and terminator removed. */
function payload(imageData: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 1; imageData[offset] !== 0; offset += 1 + (imageData[offset] as number)) {
    parts.push(imageData.subarray(offset + 1, offset + 1 + (imageData[offset] as number)));
  }
  return Buffer.concat(parts);
}

/** Decodes `imageData` with giflib (through node-canvas) and maps the colors back to indices of `palette`. */
async function giflibIndices(imageData: Buffer, width: number, height: number, palette: Rgb[]): Promise<number[]> {
  const gif = buildGif({ width, height, palette, frames: [{ indices: new Uint8Array(0), width, height, imageData }] });
  const pixels = allPixels(await decodeImage(gif, { field: 'avatar' }));
  const indices: number[] = [];
  for (let offset = 0; offset < pixels.length; offset += 4) {
    indices.push(palette.findIndex(([red, green, blue]) => pixels[offset] === red && pixels[offset + 1] === green && pixels[offset + 2] === blue));
  }
  return indices;
}

test('a real compressed stream (table resets and KwKwK codes included) decodes exactly, and giflib agrees', async (t) => {
  const [width, height] = [200, 200];
  const pixels = patternedIndices(width * height, 4);
  const imageData = compressedGifImageData(pixels, 2);
  t.deepEqual(decodeGifLzw(payload(imageData), 2, pixels.length), pixels);
  const palette: Rgb[] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]];
  t.deepEqual(await giflibIndices(imageData, width, height, palette), [...pixels], 'the test encoder is a valid GIF encoder');
});

test('the uncompressed encoder round-trips every 8-bit value, and giflib reads it the same', async (t) => {
  const [width, height] = [64, 40];
  const pixels = new Uint8Array(width * height).map((_, index) => (index * 37) % 256);
  const imageData = encodeGifLzwUncompressed(pixels);
  t.is(imageData[0], 8);
  t.deepEqual(decodeGifLzw(payload(imageData), 8, pixels.length), pixels);
  const palette = Array.from({ length: 256 }, (_, index): Rgb => [index, 255 - index, (index * 7) % 256]);
  t.deepEqual(await giflibIndices(imageData, width, height, palette), [...pixels]);
});

test('malformed streams decode to undefined: a code not yet defined, an early end code, data running out', (t) => {
  // Minimum code size 2: 3-bit codes, clear = 4, end = 5. Bits are packed least significant first.
  const pack = (codes: number[]): Uint8Array => {
    let bits = 0n;
    codes.forEach((code, index) => (bits |= BigInt(code) << BigInt(3 * index)));
    return Uint8Array.from({ length: Math.ceil((codes.length * 3) / 8) }, (_, index) => Number((bits >> BigInt(8 * index)) & 0xffn));
  };
  t.deepEqual(decodeGifLzw(pack([4, 1, 1, 5]), 2, 2), Uint8Array.from([1, 1]), 'control: a valid stream');
  t.is(decodeGifLzw(pack([4, 1, 7]), 2, 3), undefined, 'code 7 is not defined yet');
  t.is(decodeGifLzw(pack([4, 1, 5]), 2, 3), undefined, 'end code before the third pixel');
  t.is(decodeGifLzw(pack([4, 1]), 2, 3), undefined, 'data ends before the third pixel');
});
