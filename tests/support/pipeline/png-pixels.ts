import { PNG } from 'pngjs';

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): { r: number; g: number; b: number; a: number };
  /** Share of pixels in the rectangle for which the predicate holds. */
  share(x: number, y: number, width: number, height: number, predicate: (pixel: { r: number; g: number; b: number; a: number }) => boolean): number;
}

/** Decodes real PNG bytes (throws on anything that is not a valid PNG). */
export function decodePng(bytes: Buffer): Pixels {
  const image = PNG.sync.read(bytes);
  const at = (x: number, y: number) => {
    const offset = (image.width * y + x) * 4;
    return { r: image.data[offset]!, g: image.data[offset + 1]!, b: image.data[offset + 2]!, a: image.data[offset + 3]! };
  };
  return {
    width: image.width,
    height: image.height,
    at,
    share(x, y, width, height, predicate) {
      let hits = 0;
      for (let row = y; row < y + height; row += 1) for (let column = x; column < x + width; column += 1) if (predicate(at(column, row))) hits += 1;
      return hits / (width * height);
    },
  };
}

export const isReddish = (pixel: { r: number; g: number; b: number }) => pixel.r > 90 && pixel.r > pixel.g * 2 && pixel.r > pixel.b * 2;
export const isBluish = (pixel: { r: number; g: number; b: number }) => pixel.b > 120 && pixel.b > pixel.r * 2 && pixel.b > pixel.g * 2;
