import { type ImageFormat } from '@utility-api/card/image-inspection';

export interface DeclaredSize {
  width: number;
  height: number;
}

/**
 * The smallest size the file can turn out to have, read from its first bytes; `undefined` while
 * they have not arrived. The card's `readImageHeader` is the authority, but it needs more than the
 * header for three formats (PNG: every chunk up to the first IDAT, to spot animation; GIF: the
 * whole first frame, whose extent may grow the size; WebP: the whole RIFF payload), and a bomb
 * sender controls how slowly those arrive. These few fixed-offset reads let the fetcher refuse a
 * declared 30000x30000 as soon as the declaration is in; they can only under-state the size, so
 * they never refuse what `readImageHeader` would accept.
 */
export function declaredSizeLowerBound(bytes: Buffer, format: ImageFormat): DeclaredSize | undefined {
  switch (format) {
    case 'png':
      return pngSize(bytes);
    case 'gif':
      return gifSize(bytes);
    case 'webp':
      return webpSize(bytes);
    case 'jpeg':
      return undefined; // readImageHeader reads a JPEG's SOF from a prefix already
  }
}

/** Signature (8), then IHDR: length (4) | "IHDR" | width (4, BE) | height (4, BE). */
function pngSize(bytes: Buffer): DeclaredSize | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The logical screen (width and height at 6 and 8, LE), grown by the first image descriptor's
 * extent when it has arrived: the size is the screen grown to contain the first frame.
 */
function gifSize(bytes: Buffer): DeclaredSize | undefined {
  if (bytes.length < 13) return undefined;
  const screen = { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  const image = firstGifImageDescriptor(bytes, 13 + colorTableLength(bytes[10] ?? 0));
  if (image === undefined) return screen;
  return { width: Math.max(screen.width, image.left + image.width), height: Math.max(screen.height, image.top + image.height) };
}

function colorTableLength(packed: number): number {
  return (packed & 0x80) === 0 ? 0 : 3 * 2 ** ((packed & 0x07) + 1);
}

/** Skips extensions (`21 label sub-blocks`) to the first image descriptor (`2C left top width height`, LE). */
function firstGifImageDescriptor(bytes: Buffer, blocksStart: number): { left: number; top: number; width: number; height: number } | undefined {
  let offset = blocksStart;
  while (bytes[offset] === 0x21) {
    offset += 2;
    for (;;) {
      const size = bytes[offset];
      if (size === undefined) return undefined;
      offset += 1 + size;
      if (size === 0) break;
    }
  }
  if (bytes[offset] !== 0x2c || offset + 9 > bytes.length) return undefined;
  return {
    left: bytes.readUInt16LE(offset + 1),
    top: bytes.readUInt16LE(offset + 3),
    width: bytes.readUInt16LE(offset + 5),
    height: bytes.readUInt16LE(offset + 7),
  };
}

/** The first chunk after `RIFF size WEBP`: VP8X's canvas, or a VP8L / VP8 bitstream's own size. */
function webpSize(bytes: Buffer): DeclaredSize | undefined {
  if (bytes.length < 20) return undefined;
  const fourcc = bytes.toString('latin1', 12, 16);
  const data = 20;
  if (fourcc === 'VP8X' && bytes.length >= data + 10) {
    return { width: bytes.readUIntLE(data + 4, 3) + 1, height: bytes.readUIntLE(data + 7, 3) + 1 };
  }
  if (fourcc === 'VP8L' && bytes.length >= data + 5 && bytes[data] === 0x2f) {
    const bits = bytes.readUInt32LE(data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (fourcc === 'VP8 ' && bytes.length >= data + 10) {
    return { width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
  }
  return undefined;
}
