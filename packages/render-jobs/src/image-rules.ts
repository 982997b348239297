/**
 * Which images a card accepts, in one place for both boundaries that judge them: the fetcher
 * refuses a body while it streams (packages/safe-fetch), the card refuses bytes before it decodes
 * them (packages/card). Each wraps these answers in its own failure type; the rules and the words
 * the API user reads are these.
 */

/** The formats a card accepts. Everything else (SVG, HTML, BMP, TIFF, AVIF, ...) is refused. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Enough bytes to tell every accepted format apart (WebP's `RIFF <size> WEBP` is the longest). */
export const IMAGE_SNIFF_LENGTH = 12;

/** Each format's signature as [offset, bytes] pairs, all of which must match. */
const SIGNATURES: readonly { format: ImageFormat; parts: readonly [number, Buffer][] }[] = [
  { format: 'png', parts: [[0, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]] },
  { format: 'jpeg', parts: [[0, Buffer.from([0xff, 0xd8, 0xff])]] },
  { format: 'gif', parts: [[0, Buffer.from('GIF87a', 'latin1')]] },
  { format: 'gif', parts: [[0, Buffer.from('GIF89a', 'latin1')]] },
  { format: 'webp', parts: [[0, Buffer.from('RIFF', 'latin1')], [8, Buffer.from('WEBP', 'latin1')]] },
];

/**
 * The format named by the file's own magic bytes, or `undefined`. A Content-Type header is never
 * consulted: servers label HTML error pages and SVGs as `image/png` all the time, and an attacker
 * controls it anyway.
 */
export function detectImageFormat(bytes: Buffer): ImageFormat | undefined {
  return SIGNATURES.find(({ parts }) => parts.every(([offset, signature]) => bytes.subarray(offset, offset + signature.length).equals(signature)))?.format;
}

/** The accepted format the bytes are, or why they are none, as the API user reads it. */
export function judgeImageFormat(bytes: Buffer): { format: ImageFormat } | { problem: string } {
  if (bytes.length === 0) return { problem: 'the image is empty; send a PNG, JPEG, GIF or WebP image' };
  const format = detectImageFormat(bytes);
  if (format === undefined) {
    return { problem: 'the file is not a PNG, JPEG, GIF or WebP image (the format is read from the bytes, not from the Content-Type)' };
  }
  return { format };
}

/**
 * The most pixels one card image may have: 16 megapixels. It admits a 12 MP phone photo
 * (4032x3024) and anything a card can show; the card itself is far smaller. A 30000x30000 PNG of
 * one colour compresses to under a megabyte and would decode to 3.6 GB: size is judged from the
 * header, never from the file's length.
 */
export const MAX_IMAGE_PIXELS = 16_000_000;

/**
 * The longest side one card image may have: 8192 pixels. The pixel limit alone would admit a
 * 16,000,000x1 strip, which no card can show but decoders still allocate full-width rows for.
 */
export const MAX_IMAGE_SIDE = 8192;

/**
 * The most frames of one animated image (GIF, WebP, APNG) that are ever read: 500. An animated card
 * plays at most 10 s of a source and shows no frame for less than 20 ms (packages/card's
 * ANIMATION_CAPS), so no card can use a 501st frame; a still card uses only the first. Frames after
 * the cap are cut from the file, unread, before a decoder sees it: libwebp's demuxer costs time
 * quadratic in the frame count (a 100,000-frame, 5 MB WebP took 10 s to read the header and 20 s
 * more to decode its first frame).
 */
export const MAX_SOURCE_FRAMES = 500;

/** The longest an animated card plays before it loops (packages/card's ANIMATION_CAPS); later source frames are never read. */
export const MAX_ANIMATION_MS = 10_000;

/**
 * The most pixels all images of one card may declare together: 40 megapixels. A card draws up to
 * ten images (background or banner, avatar, decoration, 8 badges); a 12 MP photo background with
 * eight 1 MP badges and a 1 MP avatar (21 MP) fits with room to spare, nine 16 MP images do not.
 * Declared sizes are charged, not what a cache hit saved, so the answer never depends on what
 * another card left in the cache.
 */
export const CARD_PIXEL_BUDGET = 40_000_000;

/**
 * The most scans a JPEG may have. Each progressive scan is one more pass over every coefficient of
 * the image, and libvips sets no limit: a 4000x4000 JPEG with 600 scans (most of them repeats,
 * about 14 bytes each) took 0.8 s, and 8 MB of such scans would hold a render for minutes.
 * Encoders write about ten (libjpeg's default progression has 10 scans).
 */
export const MAX_JPEG_SCANS = 100;

/** "16 megapixels", "1 megapixel", or "250,000 pixels" for counts that are not whole megapixels. */
export function describePixelCount(pixels: number): string {
  if (pixels % 1_000_000 !== 0) return `${pixels.toLocaleString('en-US')} pixels`;
  const megapixels = pixels / 1_000_000;
  return `${megapixels} ${megapixels === 1 ? 'megapixel' : 'megapixels'}`;
}

/** Why a declared size is over the limits, as the API user reads it; `undefined` when it fits. */
export function imageSizeProblem({ width, height }: { width: number; height: number }): string | undefined {
  if (width * height > MAX_IMAGE_PIXELS) return `the image is ${width}x${height} pixels; the limit is ${describePixelCount(MAX_IMAGE_PIXELS)}`;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) return `the image is ${width}x${height} pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels`;
  return undefined;
}
