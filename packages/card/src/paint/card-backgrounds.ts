import type { Canvas } from 'canvas';
import { backgroundCache, contentKey } from '../cache/card-caches.ts';
import { rgba } from '../color/color.ts';
import { type CardPixelBudget, checkImage } from '../images/decode-image.ts';
import { generatedBackground } from './generated-background.ts';
import type { Palette } from './palette.ts';
import { softenedCover, type Softness } from './soften.ts';

/**
 * Backgrounds ready to draw at the card's pixel size are cached: a server's welcome image comes back
 * for every member who joins, and decoding plus softening it is the most expensive part of a card.
 *
 * A photo (custom background or banner), cover-cropped and softened: checked and charged to the
 * budget now, drawn by the returned function. Throws CardImageError for bad bytes. The budget is
 * charged on a cache hit too (see CARD_PIXEL_BUDGET), with the size kept beside the canvas.
 */
export async function checkPhotoBackground(bytes: Buffer, options: { field: string; budget: CardPixelBudget; softness: Softness; width: number; height: number }): Promise<() => Promise<Canvas>> {
  const key = `photo:${contentKey(bytes)}:${options.softness}:${options.width}x${options.height}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) {
    options.budget.charge(options.field, cached.declared.width, cached.declared.height);
    return () => Promise.resolve(cached.canvas);
  }
  const photo = await checkImage(bytes, options);
  return async () => {
    const canvas = await softenedCover(photo, options);
    backgroundCache.set(key, { canvas, declared: photo.declared });
    return canvas;
  };
}

/** The art generated from the profile colors and id, for cards without a photo. */
export function generatedCardBackground(palette: Palette, userId: string, width: number, height: number): Canvas {
  const key = `generated:${userId}:${rgba(palette.primary)}:${rgba(palette.secondary)}:${width}x${height}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) return cached.canvas;
  const canvas = generatedBackground(palette, userId, width, height);
  backgroundCache.set(key, { canvas, declared: { width: 0, height: 0 } });
  return canvas;
}
