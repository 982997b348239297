import { type Canvas, createCanvas } from 'canvas';
import { backgroundCache, contentKey } from '../cache/card-caches.ts';
import { rgba } from '../color/color.ts';
import { type CardPixelBudget, checkImage } from '../images/decode-image.ts';
import { generatedBackground } from './generated-background.ts';
import type { Palette } from './palette.ts';
import { roundedRectPath } from './shapes.ts';
import { softenedCover, type Softness } from './soften.ts';

/**
 * Backgrounds ready to draw at the card's pixel size are cached: a server's welcome image comes back
 * for every member who joins, and decoding plus softening it is the most expensive part of a card.
 * With `cornerRadius` (device pixels) the cached picture has the card's rounded corners already cut
 * out, so a card draws it without clipping to its outline: a clip over the whole card makes cairo
 * mask every pixel of every full-card layer, again on each card, for the same corners.
 *
 * A photo (custom background or banner), cover-cropped and softened: checked and charged to the
 * budget now, drawn by the returned function. Throws CardImageError for bad bytes. The budget is
 * charged on a cache hit too (see CARD_PIXEL_BUDGET), with the size kept beside the canvas.
 */
export async function checkPhotoBackground(
  bytes: Buffer,
  options: { field: string; budget: CardPixelBudget; softness: Softness; width: number; height: number; cornerRadius?: number },
): Promise<() => Promise<Canvas>> {
  const cornerRadius = options.cornerRadius ?? 0;
  const key = `photo:${contentKey(bytes)}:${options.softness}:${options.width}x${options.height}:r${cornerRadius}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) {
    options.budget.charge(options.field, cached.declared.width, cached.declared.height);
    return () => Promise.resolve(cached.canvas);
  }
  const photo = await checkImage(bytes, options);
  return async () => {
    const canvas = withRoundedCorners(await softenedCover(photo, options), cornerRadius);
    backgroundCache.set(key, { canvas, declared: photo.declared });
    return canvas;
  };
}

/** The art generated from the profile colors and id, for cards without a photo; `cornerRadius` as for a photo. */
export function generatedCardBackground(palette: Palette, userId: string, width: number, height: number, cornerRadius = 0): Canvas {
  const key = `generated:${userId}:${rgba(palette.primary)}:${rgba(palette.secondary)}:${width}x${height}:r${cornerRadius}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) return cached.canvas;
  const canvas = withRoundedCorners(generatedBackground(palette, userId, width, height), cornerRadius);
  backgroundCache.set(key, { canvas, declared: { width: 0, height: 0 } });
  return canvas;
}

/** The picture inside a rounded rectangle of its own size, the corners outside it transparent. */
function withRoundedCorners(picture: Canvas, radius: number): Canvas {
  if (radius <= 0) return picture;
  const rounded = createCanvas(picture.width, picture.height);
  const context = rounded.getContext('2d');
  roundedRectPath(context, 0, 0, rounded.width, rounded.height, radius);
  context.clip();
  context.drawImage(picture, 0, 0);
  return rounded;
}
