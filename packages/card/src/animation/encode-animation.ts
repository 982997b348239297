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

/**
 * The card's frames, stacked top to bottom as straight-alpha RGBA (libvips' "toilet roll" with
 * `pageHeight`), as one looping animation. Only pixels the card drew come here, never request bytes.
 */
export function encodeAnimation(pixels: Buffer, options: { width: number; height: number; delaysMs: number[]; format: CardAnimationFormat }): Promise<Buffer> {
  const { width, height, delaysMs } = options;
  const frames = sharp(pixels, { raw: { width, height: height * delaysMs.length, channels: 4, pageHeight: height } });
  const encoded = options.format === 'gif' ? frames.gif({ loop: 0, delay: delaysMs, ...ENCODING.gif }) : frames.webp({ loop: 0, delay: delaysMs, ...ENCODING.webp });
  return encoded.toBuffer();
}
