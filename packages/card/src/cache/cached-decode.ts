import { type CardPixelBudget, checkImage, type DecodedImage } from '../images/index.ts';
import { decodedImageCache } from './card-caches.ts';
import { contentKey } from './content-key.ts';

/**
 * {@link checkImage} for an image drawn in a `side` x `side` box, behind the decoded-image cache:
 * checks and charges the budget now, and returns the decode to run later, beside the card's other
 * images. The pixels are resized to cover the box (never enlarged). Only successes are kept: a
 * refused image is checked again each time, so its error always names the field it came from this
 * time. A hit skips the checks, which is safe because the same bytes passed them before, but is
 * still charged to the card's pixel budget.
 */
export async function checkImageCached(
  bytes: Buffer,
  options: { field: string; budget: CardPixelBudget; side: number },
): Promise<() => Promise<DecodedImage>> {
  const side = Math.max(1, Math.round(options.side));
  const key = `${contentKey(bytes)}:${side}`;
  const cached = decodedImageCache.get(key);
  if (cached !== undefined) {
    options.budget.charge(options.field, cached.declared.width, cached.declared.height);
    return () => Promise.resolve(cached);
  }
  const checked = await checkImage(bytes, { field: options.field, budget: options.budget });
  return async () => {
    const image = await checked.decode((pipeline) => pipeline.resize(side, side, { fit: 'outside', withoutEnlargement: true }));
    decodedImageCache.set(key, image);
    return image;
  };
}
