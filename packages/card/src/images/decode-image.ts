import { type Canvas, createCanvas, createImageData, type Image, loadImage } from 'canvas';
import { corruptImage } from './card-image-error.ts';
import { extractFirstFrame } from './first-frame.ts';
import { assertImageComplete } from './image-completeness.ts';
import { type ImageFormat, sniffImageFormat } from './image-format.ts';
import { type ImageHeader, readImageHeader } from './image-header.ts';
import { assertWithinImageLimits, pixelLimit } from './image-limits.ts';
import { type WebpStill } from './webp-first-frame.ts';
import { decodeWebpStill, loadWebpDecoder, type RgbaPixels } from './webp-decoder.ts';

/** An untrusted image made drawable: `source` goes straight to `ctx.drawImage`. */
export interface DecodedImage {
  source: Image | Canvas;
  width: number;
  height: number;
  /** The format the bytes really were (from their magic bytes). */
  format: ImageFormat;
}

export interface DecodeImageOptions {
  /** The request input the bytes came from; every error names it (e.g. `customBadges.2`). */
  field: string;
  /** A tighter pixel limit than MAX_IMAGE_PIXELS (image-limits.ts) for this input; it cannot raise it. */
  maxPixels?: number;
}

const UNDECODABLE = 'the image could not be decoded; it may be damaged';

/**
 * Turns untrusted bytes into something canvas can draw, refusing what could hurt the process:
 * 1. the format is read from the magic bytes (PNG, JPEG, GIF, WebP; anything else: `unsupported_format`);
 * 2. the size is read from the header and checked against the limits (`too_large`) before any decoder allocates;
 * 3. the file's structure is walked to its end, so a truncated file is `corrupt` rather than half-drawn;
 * 4. animations are cut to their first frame (see first-frame.ts);
 * 5. PNG, JPEG and GIF go to node-canvas as a Buffer, never as a string (which it would treat as a
 *    file path or URL to fetch); WebP goes to libwebp in WebAssembly and is painted onto a Canvas.
 * Any decoder failure becomes a `corrupt` CardImageError with a generic message: library messages
 * are not for API users. Only CardImageError is thrown for bad bytes; anything else is a server fault.
 */
export async function decodeImage(bytes: Buffer, options: DecodeImageOptions): Promise<DecodedImage> {
  const { field } = options;
  const maxPixels = pixelLimit(options.maxPixels); // first: a bad option is the caller's bug, whatever the bytes
  const format = sniffImageFormat(bytes, field);
  // Start the WebP decoder before the checks, so nothing is awaited between checking the bytes and
  // decoding them: the caller cannot change the buffer in between.
  const webpDecoder = format === 'webp' ? await loadWebpDecoder() : undefined;

  const header = readImageHeader(bytes, format, field);
  assertWithinImageLimits(header, field, maxPixels);
  assertImageComplete(bytes, format, field);
  const frame = extractFirstFrame(bytes, format, field);

  if (frame.decoder === 'webp') {
    if (webpDecoder === undefined) throw new Error('the WebP decoder was not loaded');
    return paintWebpStill(decodeWebpStill(webpDecoder, frame.still.bytes), frame.still, header, field);
  }
  return loadWithCanvas(frame.bytes, header, field);
}

async function loadWithCanvas(bytes: Buffer, header: ImageHeader, field: string): Promise<DecodedImage> {
  let image: Image;
  try {
    // node-canvas decodes synchronously inside `loadImage` (the `src` setter), so these are the bytes just checked.
    image = await loadImage(bytes);
  } catch {
    throw corruptImage(field, UNDECODABLE);
  }
  // The decoder must agree with the header the limits were checked against.
  if (image.width !== header.width || image.height !== header.height) throw corruptImage(field, UNDECODABLE);
  return { source: image, width: image.width, height: image.height, format: header.format };
}

function paintWebpStill(pixels: RgbaPixels | undefined, still: WebpStill, header: ImageHeader, field: string): DecodedImage {
  if (pixels === undefined || pixels.width !== still.width || pixels.height !== still.height) {
    throw corruptImage(field, UNDECODABLE);
  }
  // The canvas starts fully transparent, which is what lies under an animation's first frame.
  const canvas = createCanvas(still.canvasWidth, still.canvasHeight);
  canvas.getContext('2d').putImageData(createImageData(pixels.data, pixels.width, pixels.height), still.x, still.y);
  return { source: canvas, width: canvas.width, height: canvas.height, format: header.format };
}
