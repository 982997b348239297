import { type Canvas, createCanvas, createImageData } from 'canvas';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { CardImageError, corruptImage } from './card-image-error.ts';
import { CARD_PIXEL_BUDGET, describePixelCount, imageSizeProblem, type ImageFormat, judgeImageFormat, MAX_IMAGE_PIXELS } from '@utility-api/render-jobs';
import { assertJpegScanLimit, stripPngMetadata } from './decoder-guards.ts';
import { keepFirstFrames } from './animation-frames.ts';

// libvips keeps recently used operations and their pixels for reuse; the card keeps its own
// bounded caches of what it draws, so a second, unbounded one only holds memory.
sharp.cache(false);

/** An untrusted image made drawable: `source` goes straight to `ctx.drawImage`. */
export interface DecodedImage extends Omit<CheckedImage, 'decode'> {
  source: Canvas;
  /** The size of `source`, after the resize the caller asked for. */
  width: number;
  height: number;
}

export interface CheckImageOptions {
  /** The request input the bytes came from; every error names it (e.g. `customBadges.2`). */
  field: string;
  /** The card's pixel budget, charged with this image's declared size before anything decodes. */
  budget?: CardPixelBudget | undefined;
}

/**
 * What libvips does to the first frame before it becomes pixels in this process: usually a resize
 * to the size the card draws it at, so a 12 MP photo never exists here as 48 MB of canvas.
 */
export type ImageTransform = (image: Sharp) => Sharp;

/** An image whose bytes passed every check and whose size was charged: only its pixels are left. */
export interface CheckedImage {
  /** The format the bytes really were (from their magic bytes). */
  format: ImageFormat;
  /** The size the file declared (upright, first frame): what was charged to the pixel budget. */
  declared: { width: number; height: number };
  decode(transform?: ImageTransform): Promise<DecodedImage>;
}

const UNDECODABLE = 'the image could not be decoded; it may be damaged';

/**
 * The options every untrusted read runs with; see decodeImage for why each is there. The header
 * is read without libvips' own pixel limit, so that an oversized image is refused by
 * assertWithinImageLimits with a message that says so rather than as undecodable.
 */
function openUntrusted(bytes: Buffer, purpose: 'header' | 'pixels'): Sharp {
  return sharp(bytes, {
    failOn: 'warning',
    limitInputPixels: purpose === 'header' ? false : MAX_IMAGE_PIXELS,
    // Only the first frame of an animation is decoded (libvips' default, said here on purpose);
    // checkImage has already cut a GIF or WebP to that frame, since libvips would still read
    // every frame's header.
    pages: 1,
    autoOrient: true,
    // A colour profile is parsed by lcms and could be built to be slow; cards are drawn in sRGB.
    ignoreIcc: true,
  });
}

/**
 * Turns untrusted bytes into something canvas can draw. libvips, through sharp, does the reading;
 * what it does not guard against is done here first:
 * 1. the format comes from the magic bytes (PNG, JPEG, GIF, WebP); SVG, TIFF, HEIF and the other
 *    formats libvips reads are refused before it sees them (`unsupported_format`);
 * 2. PNG metadata chunks are dropped and JPEG scans counted (decoder-guards.ts): libpng inflates
 *    every compressed text chunk before the pixels (a 7.7 MB file cost 3.8 GB), and each
 *    progressive scan is another pass over the whole image; an animated GIF or WebP is cut to its
 *    first frame (animation-frames.ts): libwebp reads every frame's header, at a cost quadratic in
 *    their count, however few frames are decoded;
 * 3. the header's size is checked against the per-image limits and charged to the card's pixel
 *    budget before a pixel is decoded (`too_large`);
 * 4. the first frame is decoded with `failOn: 'warning'` (a truncated or damaged file is
 *    `corrupt`, not half drawn), turned upright by its EXIF orientation, run through the caller's
 *    transform (resize, blur) inside libvips, and only then copied into a canvas.
 * Decoder failures become a `corrupt` CardImageError with a generic message: library messages are
 * not for API users. Only CardImageError is thrown for bad bytes; anything else is a server fault.
 */
export async function decodeImage(input: Buffer, options: CheckImageOptions & { transform?: ImageTransform }): Promise<DecodedImage> {
  return (await checkImage(input, options)).decode(options.transform);
}

/**
 * Steps 1 to 3 of {@link decodeImage}: cheap, header only. A card checks its images one after the
 * other, so its budget is charged in a fixed order (the same request always names the same
 * field), then decodes their pixels side by side.
 */
export async function checkImage(input: Buffer, options: CheckImageOptions): Promise<CheckedImage> {
  const { field } = options;
  const format = sniffImageFormat(input, field);
  const bytes = format === 'png' ? stripPngMetadata(input, field) : keepFirstFrames(input, format, field, 1);
  if (format === 'jpeg') assertJpegScanLimit(bytes, field);

  let width: number;
  let height: number;
  try {
    const metadata = await openUntrusted(bytes, 'header').metadata();
    width = metadata.autoOrient.width;
    height = metadata.autoOrient.height;
  } catch {
    throw corruptImage(field, UNDECODABLE);
  }
  assertWithinImageLimits({ width, height }, field);
  options.budget?.charge(field, width, height);
  const declared = { width, height };
  return { format, declared, decode: (transform) => decodePixels(bytes, { field, format, declared, transform }) };
}

/** Step 4 of {@link decodeImage}, for bytes that passed {@link checkImage}. */
async function decodePixels(bytes: Buffer, image: Omit<DecodedImage, 'source' | 'width' | 'height'> & { field: string; transform: ImageTransform | undefined }): Promise<DecodedImage> {
  const pipeline = (image.transform ?? ((untouched: Sharp) => untouched))(openUntrusted(bytes, 'pixels')).ensureAlpha().raw();
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await pipeline.toBuffer({ resolveWithObject: true });
  } catch {
    throw corruptImage(image.field, UNDECODABLE);
  }
  const { width, height } = pixels.info;
  return { source: rgbaCanvas(pixels.data, width, height), width, height, format: image.format, declared: image.declared };
}

/** Straight-alpha RGBA rows (libvips' raw output) painted onto a canvas of the same size. */
export function rgbaCanvas(data: Buffer, width: number, height: number): Canvas {
  const canvas = createCanvas(width, height);
  const clamped = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
  canvas.getContext('2d').putImageData(createImageData(clamped, width, height), 0, 0);
  return canvas;
}

/** The accepted format the bytes are (the job contract's image rules), or `unsupported_format`. */
export function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  const judged = judgeImageFormat(bytes);
  if ('problem' in judged) throw new CardImageError('unsupported_format', field, judged.problem);
  return judged.format;
}

/**
 * Refuses, as `too_large`, a size over the per-image limits of the job contract's image rules
 * (16 megapixels, 8192 px a side). Call it with the header's size, before anything decodes.
 */
export function assertWithinImageLimits(size: { width: number; height: number }, field: string): void {
  const problem = imageSizeProblem(size);
  if (problem !== undefined) throw new CardImageError('too_large', field, problem);
}

/** The pixels one card may still decode; each image's declared size is charged before it decodes. */
export class CardPixelBudget {
  #remaining: number;
  readonly #total: number;

  constructor(total = CARD_PIXEL_BUDGET) {
    if (!Number.isSafeInteger(total) || total < 1) throw new RangeError(`a pixel budget must be a positive integer, got ${total}`);
    this.#total = total;
    this.#remaining = total;
  }

  /** Takes `width` x `height` from the budget, or refuses the image as `too_large` naming `field`. */
  charge(field: string, width: number, height: number): void {
    const pixels = width * height;
    if (pixels > this.#remaining) {
      throw new CardImageError('too_large', field, `the card's images together exceed ${describePixelCount(this.#total)}, the limit for one card`);
    }
    this.#remaining -= pixels;
  }

  /**
   * Takes as many of `wanted` more frames of `width` x `height` as the budget still holds and says
   * how many that was (0 when none fits): an animation's later frames are cut, never refused.
   */
  chargeFrames(width: number, height: number, wanted: number): number {
    const frames = Math.max(0, Math.min(wanted, Math.floor(this.#remaining / Math.max(1, width * height))));
    this.#remaining -= frames * width * height;
    return frames;
  }
}
