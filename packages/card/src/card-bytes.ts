import { ANIMATION_CAPS } from './animation/timeline.ts';
import { CARD_FRAME } from './layout/card-layout.ts';
import { WELCOME_TALL_FRAME } from './layout/welcome-tall-layout.ts';

/** Discord refuses a bot's upload over 10 MiB (the limit of a server without boosts). */
export const DISCORD_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/** The largest card: the 2x (HiDPI) scale. */
const MAX_SCALE = 2;

/**
 * The most bytes a still PNG of `width` x `height` RGBA can take whatever its pixels: every row's
 * filter byte and pixels stored uncompressed (zlib's deflateBound: what deflate emits at worst,
 * stored blocks), the zlib header and checksum, libpng's IDAT framing (12 bytes per 8 KiB chunk),
 * signature, IHDR and IEND, and a kilobyte for any other chunk. The WebP, AVIF and GIF of a
 * still card are lossy or paletted encodings of the same pixels, far under it (tests/unit/card/card-bytes.test.ts
 * measures a card of noise in every format).
 */
export function worstCasePngBytes(width: number, height: number): number {
  const raw = height * (1 + width * 4);
  const deflated = raw + (raw >> 12) + (raw >> 14) + (raw >> 25) + 13;
  const zlib = deflated + 6;
  return 8 + 25 + zlib + Math.ceil(zlib / 8192) * 12 + 12 + 1024;
}

/** The most pixels a still card has at 1x: the tall welcome card's 960x540 (the 3:1 cards are 900x300). */
const LARGEST_FRAME = [CARD_FRAME, WELCOME_TALL_FRAME].reduce((largest, frame) => (frame.width * frame.height > largest.width * largest.height ? frame : largest));

/**
 * What a card's bytes can reach, by construction: a still card at the largest scale cannot pass
 * `still` (8.3 MB, a 1920x1080 tall welcome card; 4.3 MB for a 1800x600 one), and an animated one is drawn again with half the frames until it is under
 * `animated` (ANIMATION_CAPS.maxBytes, 4 MiB), else answered as the still card. Both under
 * Discord's upload limit; checked when the module loads, so a change of size, scale or cap that
 * broke it would stop every test at once.
 */
export const CARD_BYTE_CAPS = {
  discordUpload: DISCORD_UPLOAD_LIMIT_BYTES,
  still: worstCasePngBytes(LARGEST_FRAME.width * MAX_SCALE, LARGEST_FRAME.height * MAX_SCALE),
  animated: ANIMATION_CAPS.maxBytes,
} as const;

for (const [kind, bytes] of [['still', CARD_BYTE_CAPS.still], ['animated', CARD_BYTE_CAPS.animated]] as const) {
  if (bytes > DISCORD_UPLOAD_LIMIT_BYTES) throw new Error(`a ${kind} card may take ${bytes} bytes, over Discord's ${DISCORD_UPLOAD_LIMIT_BYTES}-byte upload limit`);
}
