import sharp from 'sharp';

/** What an animated card is encoded as: animated WebP (the default) or GIF. */
export type CardAnimationFormat = 'webp' | 'gif';

/**
 * Encoder settings. WebP quality 80 at effort 2 of 6: on the animated bench card it encodes in
 * about half the time of the default effort 4. GIF: effort 1 of 10 (libimagequant's fastest
 * palettes, one per frame) with light dithering, so that still areas keep their indices from
 * frame to frame and cost almost nothing.
 */
const ENCODING = { webp: { quality: 80, effort: 2 }, gif: { effort: 1, dither: 0.3 } } as const;

/** An encoded animation and the frames it holds, as read back from its own bytes. */
export interface EncodedAnimation {
  bytes: Buffer;
  /** Frames of the file: fewer than were drawn when the encoder merged some, 1 when none differ. */
  frames: number;
  /** The file's delay per frame (libvips' reading of it). */
  delaysMs: number[];
}

/**
 * The card's frames, stacked top to bottom as straight-alpha RGBA (libvips' "toilet roll" with
 * `pageHeight`), as one looping animation. Only pixels the card drew come here, never request bytes.
 * Both encoders merge a frame identical to the one before into it (libwebp's animation encoder, and
 * cgif for GIF), so the file may have fewer frames than were drawn, one when none differ: its own
 * frame count and delays are read back from the bytes (our output, at most ANIMATION_CAPS.maxFrames
 * frames, so the read is cheap) for the answer to describe the file that is stored.
 */
export async function encodeAnimation(pixels: Buffer, options: { width: number; height: number; delaysMs: number[]; format: CardAnimationFormat }): Promise<EncodedAnimation> {
  const { width, height, delaysMs } = options;
  const frames = sharp(pixels, { raw: { width, height: height * delaysMs.length, channels: 4, pageHeight: height } });
  const encoded = options.format === 'gif' ? frames.gif({ loop: 0, delay: delaysMs, ...ENCODING.gif }) : frames.webp({ loop: 0, delay: delaysMs, ...ENCODING.webp });
  const bytes = await encoded.toBuffer();
  const stored = await sharp(bytes).metadata();
  return { bytes, frames: stored.pages ?? 1, delaysMs: stored.delay ?? [] };
}
