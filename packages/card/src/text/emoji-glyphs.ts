import { createCanvas, type Canvas } from 'canvas';
import { LRUCache } from 'lru-cache';
import { EMOJI_FAMILY } from '../fonts/font-files.ts';

/**
 * Noto Color Emoji is a bitmap font with one 109 px strike, and Pango draws it at that size
 * whatever the font size asks. So each emoji is drawn once at its native size, trimmed to its
 * pixels, cached, and scaled like an image where text needs it.
 */
const NATIVE_SIZE = 109;
const PAD = 24;

function renderNative(emoji: string): Canvas | null {
  const side = NATIVE_SIZE * 2 + PAD * 2;
  const canvas = createCanvas(side, side);
  const context = canvas.getContext('2d');
  context.textDrawingMode = 'glyph';
  context.font = `${NATIVE_SIZE}px "${EMOJI_FAMILY}"`;
  context.textBaseline = 'alphabetic';
  context.fillText(emoji, PAD, PAD + NATIVE_SIZE);
  const { data } = context.getImageData(0, 0, side, side);
  let [left, top, right, bottom] = [side, side, -1, -1];
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      if ((data[(y * side + x) * 4 + 3] ?? 0) > 8) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  if (right < 0) return null;
  const trimmed = createCanvas(right - left + 1, bottom - top + 1);
  trimmed.getContext('2d').drawImage(canvas, left, top, trimmed.width, trimmed.height, 0, 0, trimmed.width, trimmed.height);
  return trimmed;
}

/** Rendered glyphs, `false` when the font has none (lru-cache keeps no null). */
const glyphs = new LRUCache<string, Canvas | false>({ max: 512, memoMethod: (emoji) => renderNative(emoji) ?? false });

/** The emoji's pixels, or null when the emoji font has no glyph for it (drawn as text instead). */
export function emojiGlyph(emoji: string): Canvas | null {
  return glyphs.memo(emoji) || null;
}

/** Glyphs resampled to the device pixels they cover, keyed by emoji and size. */
const sized = new LRUCache<string, Canvas>({ max: 512 });

/**
 * The emoji scaled once to exactly `width` x `height` pixels, for drawing without any transform
 * (see drawEmoji in rich-text.ts); null when the emoji font has no glyph for it.
 */
export function emojiGlyphAtSize(emoji: string, width: number, height: number): Canvas | null {
  const key = `${width}x${height} ${emoji}`;
  const cached = sized.get(key);
  if (cached) return cached;
  const glyph = emojiGlyph(emoji);
  if (!glyph) return null;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  context.drawImage(glyph, 0, 0, width, height);
  sized.set(key, canvas);
  return canvas;
}
