import { Canvas } from 'canvas';

/**
 * PNG settings, chosen by measurement on this project's cards (`pnpm card:bench` prints the full
 * table; docs/card-design.md keeps a copy): zlib level 4 without row filtering. Encoding is the
 * largest single cost of a render. Over the 22 golden cards, level 4 unfiltered takes ~6.5 ms for
 * ~97 KB, where node-canvas's default (level 6, adaptive filters) takes ~25 ms for ~98 KB and
 * level 3 with the Sub filter ~9 ms for ~115 KB: from level 4 zlib matches lazily, which finds the
 * repeats in raw RGBA rows that a filter would have to create. The filter constants exist only on
 * the Canvas class; read from an instance they are undefined and silently ignored.
 */
export const PNG_ENCODING = { compressionLevel: 4, filters: Canvas.PNG_FILTER_NONE } as const;

export function encodePng(canvas: Canvas): Buffer {
  return canvas.toBuffer('image/png', PNG_ENCODING);
}
