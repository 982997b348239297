import type { Canvas } from 'canvas';
import { backgroundCache } from '../cache/card-caches.ts';
import { contentKey } from '../cache/content-key.ts';
import { rgba } from '../color/color.ts';
import { decodeImage } from '../images/index.ts';
import { generatedBackground } from './generated-background.ts';
import type { Palette } from './palette.ts';
import { softenedCover, type Softness } from './soften.ts';

/**
 * Backgrounds ready to draw at the card's pixel size, cached: a server's welcome image comes back
 * for every member who joins, and decoding plus softening it is the most expensive part of a card.
 */

/** A photo (custom background or banner), cover-cropped and softened. Throws CardImageError for bad bytes. */
export async function photoBackground(bytes: Buffer, field: string, softness: Softness, width: number, height: number): Promise<Canvas> {
  const key = `photo:${contentKey(bytes)}:${softness}:${width}x${height}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) return cached;
  // Not through the decoded-image cache: the full-size photo is only needed to make this canvas.
  const image = await decodeImage(bytes, { field });
  const background = softenedCover(image.source, width, height, softness);
  backgroundCache.set(key, background);
  return background;
}

/** The art generated from the profile colors and id, for cards without a photo. */
export function generatedCardBackground(palette: Palette, userId: string, width: number, height: number): Canvas {
  const key = `generated:${userId}:${rgba(palette.primary)}:${rgba(palette.secondary)}:${width}x${height}`;
  const cached = backgroundCache.get(key);
  if (cached !== undefined) return cached;
  const background = generatedBackground(palette, userId, width, height);
  backgroundCache.set(key, background);
  return background;
}
