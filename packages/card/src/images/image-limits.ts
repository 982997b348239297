import { describePixelCount, imageSizeProblem } from '@utility-api/render-jobs';
import { CardImageError } from './card-image-error.ts';

/**
 * The most pixels all images of one card may declare together: 40 megapixels. A card draws up to
 * ten images (background or banner, avatar, decoration, 8 badges); a 12 MP photo background with
 * eight 1 MP badges and a 1 MP avatar (21 MP) fits with room to spare, nine 16 MP images do not.
 * Declared sizes are charged, not what a cache hit saved, so the answer never depends on what
 * another card left in the cache.
 */
export const CARD_PIXEL_BUDGET = 40_000_000;

/**
 * Refuses, as `too_large`, a size over the per-image limits of card-options' image rules
 * (16 megapixels, 8192 px a side). Call it with the header's size, before anything decodes.
 */
export function assertWithinImageLimits(size: { width: number; height: number }, field: string): void {
  const problem = imageSizeProblem(size);
  if (problem !== undefined) throw new CardImageError('too_large', field, problem);
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
