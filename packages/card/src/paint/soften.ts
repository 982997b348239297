import { createCanvas, type Canvas, type Image } from 'canvas';
import type { CheckedImage, ImageTransform } from '../images/decode-image.ts';

export type Drawable = Image | Canvas;

/**
 * How a photo background is softened: libvips shrinks the cover crop by `factor` (shrink-on-load
 * for JPEG and WebP, so a 12 MP photo is never decoded whole), blurs it there with a Gaussian of
 * `sigma` small pixels, and cairo scales it back up with bilinear smoothing. Blurring at the small
 * size is what keeps the upscale from showing the blocky grid of a plain shrink-and-grow, and it
 * costs a fraction of blurring at full size. Effective sigma on the 1x card: about 3.5 px (soft)
 * and 21 px (strong).
 */
const SOFTNESS = { soft: { factor: 3, sigma: 1.15 }, strong: { factor: 6, sigma: 3.5 } } as const;

export type Softness = keyof typeof SOFTNESS;

/**
 * The libvips half of softening: the cover crop shrunk to its small size and blurred there. The
 * small picture is then drawn scaled up to the card's size (softenedCover, or an animated card's
 * background step for each frame).
 */
export function softening(options: { softness: Softness; width: number; height: number }): { transform: ImageTransform; width: number; height: number } {
  const { factor, sigma } = SOFTNESS[options.softness];
  const [width, height] = [Math.max(1, Math.round(options.width / factor)), Math.max(1, Math.round(options.height / factor))];
  return { width, height, transform: (image) => image.resize(width, height, { fit: 'cover', position: 'centre' }).blur(sigma) };
}

/**
 * A checked photo as a cover-cropped, softened canvas of `width` x `height` (the card's pixel size).
 * Throws CardImageError when its pixels turn out to be damaged.
 */
export async function softenedCover(photo: CheckedImage, options: { softness: Softness; width: number; height: number }): Promise<Canvas> {
  const small = await photo.decode(softening(options).transform);
  const canvas = createCanvas(options.width, options.height);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  context.drawImage(small.source, 0, 0, options.width, options.height);
  return canvas;
}
