import type { Canvas } from 'canvas';
import type { DecodedImage } from '../images/index.ts';
import { BoundedCache, type BoundedCacheLimits, type BoundedCacheStats } from './bounded-cache.ts';

export interface CardCacheLimits {
  /** Decoded avatars, avatar decorations and custom badges at their drawn size, counted at 4 bytes per pixel. */
  decodedImages: BoundedCacheLimits;
  /** Backgrounds ready to draw (cover-cropped and softened photos, generated art), at card pixel size. */
  backgrounds: BoundedCacheLimits;
}

/** A background ready to draw, with the size its source declared (charged to each card that uses it). */
export interface CachedBackground {
  canvas: Canvas;
  declared: { width: number; height: number };
}

const MIB = 1024 * 1024;

/**
 * Per render worker process: 64 MiB of decoded images and 48 MiB of backgrounds, which holds
 * about 44 backgrounds at 1x (1.03 MiB each) or 11 at 2x.
 */
export const DEFAULT_CARD_CACHE_LIMITS: Readonly<CardCacheLimits> = {
  decodedImages: { maxEntries: 256, maxBytes: 64 * MIB },
  backgrounds: { maxEntries: 64, maxBytes: 48 * MIB },
};

const pixelBytes = (value: { width: number; height: number }) => value.width * value.height * 4;

export const decodedImageCache = new BoundedCache<DecodedImage>(DEFAULT_CARD_CACHE_LIMITS.decodedImages, pixelBytes);
export const backgroundCache = new BoundedCache<CachedBackground>(DEFAULT_CARD_CACHE_LIMITS.backgrounds, (value) => pixelBytes(value.canvas));

/** Sets the cache bounds for this process; `{ maxEntries: 0, maxBytes: 0 }` turns a cache off. */
export function configureCardCaches(limits: Partial<CardCacheLimits>): void {
  if (limits.decodedImages) decodedImageCache.resize(limits.decodedImages);
  if (limits.backgrounds) backgroundCache.resize(limits.backgrounds);
}

/** Empties both caches and zeroes their counters (benchmarks and tests start cold with it). */
export function clearCardCaches(): void {
  decodedImageCache.clear();
  backgroundCache.clear();
}

export function cardCacheStats(): { decodedImages: BoundedCacheStats; backgrounds: BoundedCacheStats } {
  return { decodedImages: decodedImageCache.stats(), backgrounds: backgroundCache.stats() };
}
