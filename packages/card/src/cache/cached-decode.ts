import { type CardPixelBudget, decodeImage, type DecodedImage } from '../images/index.ts';
import { decodedImageCache } from './card-caches.ts';
import { contentKey } from './content-key.ts';

/**
 * {@link decodeImage} resized to cover a `side` x `side` box (never enlarged), behind the
 * decoded-image cache. Only successes are kept: a refused image is checked again each time, so its
 * error always names the field it came from this time. A hit skips the checks, which is safe
 * because the same bytes passed them before, but is still charged to the card's pixel budget.
 */
export async function decodeImageCached(bytes: Buffer, options: { field: string; budget: CardPixelBudget; side: number }): Promise<DecodedImage> {
  const side = Math.max(1, Math.round(options.side));
  const key = `${contentKey(bytes)}:${side}`;
  const cached = decodedImageCache.get(key);
  if (cached !== undefined) {
    options.budget.charge(options.field, cached.declared.width, cached.declared.height);
    return cached;
  }
  const image = await decodeImage(bytes, {
    field: options.field,
    budget: options.budget,
    transform: (pipeline) => pipeline.resize(side, side, { fit: 'outside', withoutEnlargement: true }),
  });
  decodedImageCache.set(key, image);
  return image;
}
