import { CardImageError } from './card-image-error.ts';

/**
 * The most pixels one card image may have: 16 megapixels. It admits a 12 MP phone photo
 * (4032x3024) and anything a card can show; the card itself is far smaller. libvips is given the
 * same number (`limitInputPixels`), so nothing larger is ever decoded, whatever its file size.
 */
export const MAX_IMAGE_PIXELS = 16_000_000;

/**
 * The longest side one card image may have: 8192 pixels. The pixel limit alone would admit a
 * 16,000,000x1 strip, which no card can show but decoders still allocate full-width rows for.
 */
export const MAX_IMAGE_SIDE = 8192;

/**
 * The most pixels all images of one card may declare together: 40 megapixels. A card draws up to
 * ten images (background or banner, avatar, decoration, 8 badges); a 12 MP photo background with
 * eight 1 MP badges and a 1 MP avatar (21 MP) fits with room to spare, nine 16 MP images do not.
 * Declared sizes are charged, not what a cache hit saved, so the answer never depends on what
 * another card left in the cache.
 */
export const CARD_PIXEL_BUDGET = 40_000_000;

/** "16 megapixels", "1 megapixel", or "250,000 pixels" for limits that are not whole megapixels. */
function describePixelCount(pixels: number): string {
  if (pixels % 1_000_000 !== 0) return `${pixels.toLocaleString('en-US')} pixels`;
  const megapixels = pixels / 1_000_000;
  return `${megapixels} ${megapixels === 1 ? 'megapixel' : 'megapixels'}`;
}

/**
 * Refuses, as `too_large`, a size over {@link MAX_IMAGE_PIXELS} or with a side over
 * {@link MAX_IMAGE_SIDE}. Call it with the header's size, before anything decodes.
 */
export function assertWithinImageLimits({ width, height }: { width: number; height: number }, field: string): void {
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new CardImageError('too_large', field, `the image is ${width}x${height} pixels; the limit is ${describePixelCount(MAX_IMAGE_PIXELS)}`);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new CardImageError('too_large', field, `the image is ${width}x${height} pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels`);
  }
}

/** The pixels one card may still decode; each image's declared size is charged before it decodes. */
export class CardPixelBudget {
  #remaining: number;
  readonly #total: number;

  constructor(total = CARD_PIXEL_BUDGET) {
    if (!Number.isSafeInteger(total) || total < 1) throw new RangeError(`a pixel budget must be a positive integer, got ${total}`);
    this.#total = total;
    this.#remaining = total;
  }

  /** Takes `width` x `height` from the budget, or refuses the image as `too_large` naming `field`. */
  charge(field: string, width: number, height: number): void {
    const pixels = width * height;
    if (pixels > this.#remaining) {
      throw new CardImageError('too_large', field, `the card's images together exceed ${describePixelCount(this.#total)}, the limit for one card`);
    }
    this.#remaining -= pixels;
  }
}
