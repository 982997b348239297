import { CardImageError } from './card-image-error.ts';
import { type ImageHeader } from './image-header.ts';

/**
 * The most pixels a card image may have: 16 megapixels. Decoders allocate 4 bytes per pixel, so
 * this caps one decoded image at 64 MB, whatever its file size (a 30000x30000 PNG of one color
 * compresses to under a megabyte and would decode to 3.6 GB). 16 MP still admits a 12 MP phone
 * photo (4032x3024) and anything a card can show: the card itself is far smaller.
 */
export const MAX_IMAGE_PIXELS = 16_000_000;

/**
 * The longest side a card image may have: 8192 pixels. The pixel limit alone would admit a
 * 16,000,000x1 strip, which no card can show (scaled to fit, it is a fraction of a pixel tall) but
 * which decoders still allocate full-width row buffers for; cairo, behind node-canvas, refuses
 * sides over 32767 outright, with an error that would reach the user as "corrupt". 8192 is twice
 * the width of a 4K screen and of a 12 MP photo, so no genuine card image comes near it.
 */
export const MAX_IMAGE_SIDE = 8192;

/**
 * The pixel limit for one input: `maxPixels` may only tighten {@link MAX_IMAGE_PIXELS} (a larger
 * value is capped), so no caller can reopen the bomb. A value that is not a positive integer is a
 * programming error (RangeError), not the user's.
 */
export function pixelLimit(maxPixels = MAX_IMAGE_PIXELS): number {
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) {
    throw new RangeError(`maxPixels must be a positive integer, got ${maxPixels}`);
  }
  return Math.min(maxPixels, MAX_IMAGE_PIXELS);
}

/**
 * Refuses, as `too_large`, an image whose header declares more than `maxPixels` pixels (see
 * {@link pixelLimit}) or a side over {@link MAX_IMAGE_SIDE}. Call it before anything decodes.
 */
export function assertWithinImageLimits(header: Pick<ImageHeader, 'width' | 'height'>, field: string, maxPixels = MAX_IMAGE_PIXELS): void {
  const limit = pixelLimit(maxPixels);
  const { width, height } = header;
  if (width * height > limit) {
    throw new CardImageError('too_large', field, `the image is ${width}x${height} pixels; the limit is ${describePixelCount(limit)}`);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new CardImageError('too_large', field, `the image is ${width}x${height} pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels`);
  }
}

/** "16 megapixels", "1 megapixel", or "250,000 pixels" for limits that are not whole megapixels. */
function describePixelCount(pixels: number): string {
  if (pixels % 1_000_000 !== 0) return `${pixels.toLocaleString('en-US')} pixels`;
  const megapixels = pixels / 1_000_000;
  return `${megapixels} ${megapixels === 1 ? 'megapixel' : 'megapixels'}`;
}
