/**
 * The legibility step's quantile pixel (the lightest, or darkest, behind a text once the most
 * extreme 1% is ignored) comes from a luminance histogram; it must be exactly the pixel the former
 * computation (one object per sampled pixel, sorted) picked, on real pictures: photos, generated
 * art, and rendered cards, whose flat panels make many pixels of equal luminance (ties).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { createCanvas, loadImage } from 'canvas';
import { luminanceOf, luminanceQuantileOffset } from '../../../packages/card/src/legibility/luminance-quantile.ts';
import { sampleAbstractPng, sampleBusyPng, sampleLandscapeJpeg, sampleLightPhotoJpeg } from '../../../packages/card/samples/sample-images.ts';
import { GOLDEN_FOLDER } from '../../support/card/golden-images.ts';

/** The legibility step's own share (legibility-step.ts IGNORED_SHARE), and others around it. */
const SHARES = [0.01, 0.3];

/**
 * The computation the histogram replaced, kept as the reference: sort every sample (a stable sort,
 * so ties keep row order), then the rank of each share is read from the one sorted list.
 */
function sortedQuantileOffsets(data: Uint8ClampedArray, width: number, height: number, step: number, fromLightest: boolean, shares: readonly number[]): number[] {
  const pixels: { luminance: number; offset: number }[] = [];
  for (let row = 0; row < height; row += step) {
    for (let column = 0; column < width; column += step) {
      const offset = (row * width + column) * 4;
      pixels.push({ luminance: luminanceOf(data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0), offset });
    }
  }
  pixels.sort((first, second) => (fromLightest ? second.luminance - first.luminance : first.luminance - second.luminance));
  return shares.map((ignoredShare) => pixels[Math.min(pixels.length - 1, Math.floor(pixels.length * ignoredShare))]?.offset ?? 0);
}

async function pixelsOf(bytes: Buffer): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, image.width, image.height);
}

/** Boxes of text-run sizes all over the picture (and one covering all of it), as the step reads them. */
function boxes(width: number, height: number): { x: number; y: number; width: number; height: number }[] {
  const found = [{ x: 0, y: 0, width, height }];
  for (const [boxWidth, boxHeight] of [
    [1, 1],
    [3, 2],
    [40, 14],
    [180, 24],
    [420, 40],
  ] as const) {
    for (let y = 0; y + boxHeight <= height; y += Math.max(7, Math.floor(height / 5))) {
      for (let x = 0; x + boxWidth <= width; x += Math.max(11, Math.floor(width / 6))) found.push({ x, y, width: boxWidth, height: boxHeight });
    }
  }
  return found;
}

const pictures: [string, () => Buffer][] = [
  ['landscape photo', () => sampleLandscapeJpeg()],
  ['light photo', () => sampleLightPhotoJpeg()],
  ['busy picture', () => sampleBusyPng()],
  ['generated art', () => sampleAbstractPng()],
  ...readdirSync(GOLDEN_FOLDER)
    .filter((file) => file.endsWith('.png'))
    .slice(0, 4)
    .map((file): [string, () => Buffer] => [`rendered card ${file}`, () => readFileSync(join(GOLDEN_FOLDER, file))]),
];

for (const [name, bytes] of pictures) {
  test(`the histogram picks the same pixel as sorting: ${name}`, async (t) => {
    const picture = await pixelsOf(bytes());
    let compared = 0;
    for (const box of boxes(picture.width, picture.height)) {
      // The box's pixels as getImageData gives them: rows `box.width` wide.
      const data = new Uint8ClampedArray(box.width * box.height * 4);
      for (let row = 0; row < box.height; row += 1) {
        const start = ((box.y + row) * picture.width + box.x) * 4;
        data.set(picture.data.subarray(start, start + box.width * 4), row * box.width * 4);
      }
      // The whole picture (a million pixels for the photos) only sparsely: the reference sort is slow.
      for (const step of box.width === picture.width ? [4] : [1, 2]) {
        for (const fromLightest of [true, false]) {
          const sorted = sortedQuantileOffsets(data, box.width, box.height, step, fromLightest, SHARES);
          for (const [index, share] of SHARES.entries()) {
            const expected = sorted[index];
            const actual = luminanceQuantileOffset(data, box.width, box.height, step, fromLightest, share);
            if (actual !== expected) {
              t.fail(`box ${JSON.stringify(box)}, step ${step}, ${fromLightest ? 'lightest' : 'darkest'}, share ${share}: offset ${actual}, the sort gives ${expected}`);
              return;
            }
            compared += 1;
          }
        }
      }
    }
    t.true(compared > 100, `only ${compared} comparisons`);
  });
}

test('ties in luminance go to the first pixel in row order, as the stable sort did', (t) => {
  // Four samples: two equal mid greys, then two equal light greys; rank 1 from the lightest is the
  // second light grey, rank 0 from the darkest the first mid grey.
  const data = new Uint8ClampedArray([128, 128, 128, 255, 128, 128, 128, 255, 200, 200, 200, 255, 200, 200, 200, 255]);
  t.is(luminanceQuantileOffset(data, 4, 1, 1, true, 0.25), 12);
  t.is(luminanceQuantileOffset(data, 4, 1, 1, true, 0), 8);
  t.is(luminanceQuantileOffset(data, 4, 1, 1, false, 0), 0);
  t.is(luminanceQuantileOffset(data, 4, 1, 1, false, 0.99), 12);
});
