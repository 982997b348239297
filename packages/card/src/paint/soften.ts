import { createCanvas, type Canvas, type Image } from 'canvas';
import { gaussianishBlur } from './box-blur.ts';
import { coverCrop } from './image-fit.ts';

export type Drawable = Image | Canvas;

/**
 * node-canvas ignores `ctx.filter`, so the blur is made by hand: the cover crop is shrunk by
 * `factor` (cairo averages the pixels it drops), blurred there with a Gaussian-like box blur of
 * `radius` small pixels, and scaled back up with bilinear smoothing. Blurring at the small size
 * is what keeps the upscale from showing the blocky grid of a plain shrink-and-grow, and it costs
 * a fraction of blurring at full size. Effective Gaussian sigma on the 1x card: about 3.5 px
 * (soft: two passes of radius 1 at a third of the size) and 21 px (strong: three passes of
 * radius 3 at a sixth).
 */
const SOFTNESS = {
  soft: { factor: 3, radius: 1, passes: 2 },
  strong: { factor: 6, radius: 3, passes: 3 },
} as const;

export type Softness = keyof typeof SOFTNESS;

function resized(source: Drawable, crop: { x: number; y: number; width: number; height: number }, width: number, height: number): Canvas {
  const canvas = createCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  context.drawImage(source, crop.x, crop.y, crop.width, crop.height, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** A cover-cropped, softened copy of `image` at `width` x `height` (the card's pixel size). */
export function softenedCover(image: Drawable, width: number, height: number, softness: Softness): Canvas {
  const { factor, radius, passes } = SOFTNESS[softness];
  const small = resized(image, coverCrop(image.width, image.height, width, height), width / factor, height / factor);
  const context = small.getContext('2d');
  const pixels = context.getImageData(0, 0, small.width, small.height);
  gaussianishBlur(pixels.data, small.width, small.height, radius, passes);
  context.putImageData(pixels, 0, 0);
  return resized(small, { x: 0, y: 0, width: small.width, height: small.height }, width, height);
}
