import { decodeImage, type DecodedImage } from '../images/index.ts';
import { decodedImageCache } from './card-caches.ts';
import { contentKey } from './content-key.ts';

/**
 * {@link decodeImage} behind the decoded-image cache. Only successes are kept: a refused image is
 * checked again each time, so its error always names the field it came from this time. A hit
 * skips the checks, which is safe because the same bytes passed them before.
 */
export async function decodeImageCached(bytes: Buffer, field: string): Promise<DecodedImage> {
  const key = contentKey(bytes);
  const cached = decodedImageCache.get(key);
  if (cached !== undefined) return cached;
  const image = await decodeImage(bytes, { field });
  decodedImageCache.set(key, image);
  return image;
}
