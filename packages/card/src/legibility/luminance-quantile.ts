import { relativeLuminance } from './contrast.ts';

/** One LUT for the 256 channel values: luminance is computed for thousands of pixels per card. */
const LINEAR = Float64Array.from({ length: 256 }, (_, value) => relativeLuminance({ r: value, g: 0, b: 0 }) / 0.2126);

/** WCAG relative luminance of one sRGB pixel, through the LUT. */
export const luminanceOf = (r: number, g: number, b: number): number => 0.2126 * (LINEAR[r] ?? 0) + 0.7152 * (LINEAR[g] ?? 0) + 0.0722 * (LINEAR[b] ?? 0);

/**
 * Luminance (0 to 1) is counted in this many bins. Only the bin holding the wanted rank is then
 * looked at pixel by pixel, so finer bins only make that last step shorter: 4096 keeps it to a
 * handful of pixels on photos and costs 16 KiB to clear.
 */
const BINS = 4096;
const histogram = new Uint32Array(BINS);
/** Each sample's bin, kept from the one pass over the pixels; grown as boxes need (one worker draws one card at a time). */
let sampleBins = new Uint16Array(1024);
let sampleLuminances = new Float64Array(1024);

/**
 * The byte offset in `data` (RGBA rows `width` pixels wide) of the pixel that ranks `ignoredShare`
 * of the way from the lightest (`fromLightest`) or the darkest, among the pixels sampled every
 * `step` pixels each way: the same pixel as sorting the samples by luminance (a stable sort, so the
 * first in row order among equals) and taking index `floor(count * ignoredShare)`, found with a
 * luminance histogram instead. The pixels are read once; no object is made per pixel and nothing
 * is sorted but the few samples in the bin that holds the rank (bins follow luminance, so every
 * sample in a lighter bin ranks before every sample in a darker one).
 */
export function luminanceQuantileOffset(data: Uint8ClampedArray, width: number, height: number, step: number, fromLightest: boolean, ignoredShare: number): number {
  const columns = Math.ceil(width / step);
  const count = Math.ceil(height / step) * columns;
  if (sampleBins.length < count) {
    sampleBins = new Uint16Array(count);
    sampleLuminances = new Float64Array(count);
  }
  histogram.fill(0);
  let sample = 0;
  for (let row = 0; row < height; row += step) {
    for (let column = 0; column < width; column += step) {
      const offset = (row * width + column) * 4;
      const luminance = luminanceOf(data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0);
      const bin = Math.min(BINS - 1, Math.floor(luminance * BINS));
      sampleLuminances[sample] = luminance;
      sampleBins[sample] = bin;
      histogram[bin] = (histogram[bin] ?? 0) + 1;
      sample += 1;
    }
  }
  const rank = Math.min(count - 1, Math.floor(count * ignoredShare));
  // The bin holding the rank, counted from the lightest or the darkest end, and the rank inside it.
  let bin = fromLightest ? BINS - 1 : 0;
  let before = 0;
  for (; before + (histogram[bin] ?? 0) <= rank; bin += fromLightest ? -1 : 1) before += histogram[bin] ?? 0;
  const inBin: { luminance: number; sample: number }[] = [];
  for (let index = 0; index < count; index += 1) if (sampleBins[index] === bin) inBin.push({ luminance: sampleLuminances[index] ?? 0, sample: index });
  inBin.sort((first, second) => (fromLightest ? second.luminance - first.luminance : first.luminance - second.luminance));
  const chosen = inBin[rank - before]?.sample ?? 0;
  return ((Math.floor(chosen / columns) * step) * width + (chosen % columns) * step) * 4;
}
