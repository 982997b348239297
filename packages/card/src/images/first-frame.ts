import { rebuildGifFirstFrame } from './gif-first-frame.ts';
import { type ImageFormat } from './image-format.ts';
import { type WebpStill, firstWebpStill } from './webp-first-frame.ts';

/** What to hand to a decoder so that only one frame is ever decoded. */
export type FirstFrame =
  /** Bytes for node-canvas `loadImage`: a PNG or JPEG as received, or a rebuilt one-frame GIF. */
  | { decoder: 'canvas'; bytes: Buffer }
  /** A still WebP for the wasm decoder, with its placement on the image's canvas. */
  | { decoder: 'webp'; still: WebpStill };

/**
 * Cards are still images, so animations contribute their first frame only:
 * - GIF: rebuilt as a one-frame file (gif-first-frame.ts explains why the original is never given to giflib);
 * - WebP: the first ANMF frame rewrapped as a still (webp-first-frame.ts);
 * - APNG: passed as is; libpng ignores the animation chunks and decodes only the default image;
 * - JPEG and PNG have a single image.
 * Call only after the header, limit and completeness checks.
 */
export function extractFirstFrame(bytes: Buffer, format: ImageFormat, field: string): FirstFrame {
  switch (format) {
    case 'gif':
      return { decoder: 'canvas', bytes: rebuildGifFirstFrame(bytes, field) };
    case 'webp':
      return { decoder: 'webp', still: firstWebpStill(bytes, field) };
    case 'png':
    case 'jpeg':
      return { decoder: 'canvas', bytes };
  }
}
