import type { MediaFormat } from '@utility-api/render-jobs';
import sharp, { type AvifOptions, type GifOptions, type WebpOptions } from 'sharp';

/**
 * How a drawn card (PNG bytes from the card package) becomes each stored format. Chosen by
 * measurement on the three bench cards (`pnpm card:bench` prints the per-format table; docs/profile-cards.md
 * keeps a copy), on top of the ~8 ms PNG encode (PNG: 77-148 KB):
 * - WebP lossy q90, effort 4: 16-27 KB in ~40 ms. Lossless WebP is 36-86 KB (half the PNG) in
 *   170-330 ms: three times the bytes for four times the time, and q90 keeps text edges clean.
 * - AVIF q60, effort 0, 4:4:4 chroma: 15-24 KB in ~30-40 ms. Effort 2 saves ~30% more bytes but
 *   takes 90-180 ms, effort 4 0.6-0.9 s; full chroma keeps coloured text (rank, level) crisp.
 * - GIF (a static card as one frame): sharp's palette quantisation to 256 colours, effort 3 with
 *   half dithering: 51-82 KB in ~120-140 ms. Effort 7 costs up to 0.9 s for the same size.
 */
const CARD_FORMAT_SETTINGS = {
  webp: { quality: 90, effort: 4 },
  avif: { quality: 60, effort: 0, chromaSubsampling: '4:4:4' },
  gif: { effort: 3, dither: 0.5 },
} as const satisfies { webp: WebpOptions; avif: AvifOptions; gif: GifOptions };

/** The card's PNG in `format`: the PNG itself, or sharp's encoding of its pixels. */
export async function encodeCardImage(png: Buffer, format: MediaFormat): Promise<Buffer> {
  switch (format) {
    case 'png':
      return png;
    case 'webp':
      return sharp(png).webp(CARD_FORMAT_SETTINGS.webp).toBuffer();
    case 'avif':
      return sharp(png).avif(CARD_FORMAT_SETTINGS.avif).toBuffer();
    case 'gif':
      return sharp(png).gif(CARD_FORMAT_SETTINGS.gif).toBuffer();
  }
}
