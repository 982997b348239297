import { ImageFetchError } from './image-fetch-error.ts';

/*
 * The pixel limits of a card image, checked here on the header while the body streams so that a
 * bomb costs a few dozen bytes instead of its whole body. The card package enforces the same
 * limits when it decodes, whatever the fetcher said; these constants must not be looser than its.
 */

/** 16 megapixels: 64 MB once decoded at 4 bytes a pixel, and still a 12 MP phone photo. */
export const MAX_IMAGE_PIXELS = 16_000_000;
/** 8192 pixels a side: the pixel limit alone would admit a 16,000,000x1 strip that no card can show. */
export const MAX_IMAGE_SIDE = 8192;

export interface PixelSize {
  width: number;
  height: number;
}

/** Refuses, as `too_many_pixels`, a size over either limit. */
export function assertWithinImageLimits(size: PixelSize, field: string): void {
  const { width, height } = size;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageFetchError('too_many_pixels', field, `the image is ${width}x${height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new ImageFetchError('too_many_pixels', field, `the image is ${width}x${height} pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels`);
  }
}
