import { corruptImage } from './card-image-error.ts';
import { type HeaderFacts } from './image-header.ts';
import { truncatedImage } from './image-format.ts';

/**
 * GIF layout (GIF89a spec): `GIF87a|GIF89a`, a 7-byte logical screen descriptor, an optional global
 * color table, then blocks: extensions (`21 label sub-blocks`), images (`2C descriptor [local color
 * table] lzw-min-code-size sub-blocks`), and the trailer `3B`. Sub-blocks are `size (1) | data`,
 * ended by a zero size. https://www.w3.org/Graphics/GIF/spec-gif89a.txt
 */
const HEADER_LENGTH = 6;
const SCREEN_DESCRIPTOR_LENGTH = 7;
const IMAGE_DESCRIPTOR_LENGTH = 10;
const EXTENSION_INTRODUCER = 0x21;
const IMAGE_SEPARATOR = 0x2c;
const TRAILER = 0x3b;
export const GRAPHIC_CONTROL_LABEL = 0xf9;
/** Color-table flag and size bits, the same in the screen and image descriptors. */
const HAS_COLOR_TABLE = 0x80;
const COLOR_TABLE_SIZE_BITS = 0x07;
export const INTERLACED = 0x40;

/** Byte length of the color table that a descriptor's packed field announces (0 when absent). */
export function colorTableLength(packed: number): number {
  return (packed & HAS_COLOR_TABLE) === 0 ? 0 : 3 * 2 ** ((packed & COLOR_TABLE_SIZE_BITS) + 1);
}

export interface GifScreen {
  width: number;
  height: number;
  /** Packed field: global color table flag, color resolution, sort flag, table size. */
  packed: number;
  backgroundIndex: number;
  pixelAspectRatio: number;
  /** Global color table bytes (empty when the file has none). */
  colorTable: Buffer;
  /** Offset of the first block after the header, screen descriptor and global color table. */
  blocksStart: number;
}

export type GifBlock =
  | { kind: 'extension'; label: number; start: number; end: number }
  | GifImageBlock
  | { kind: 'trailer'; start: number };

export interface GifImageBlock {
  kind: 'image';
  left: number;
  top: number;
  width: number;
  height: number;
  /** Packed field: local color table flag, interlace flag, sort flag, table size. */
  packed: number;
  /** Local color table bytes (empty when the image uses the global one). */
  colorTable: Buffer;
  lzwMinimumCodeSize: number;
  /** Offset of the first LZW sub-block, just after the minimum code size byte. */
  dataStart: number;
  /** Offset just past the zero-size sub-block that ends the image data. */
  end: number;
}

export function readGifScreen(bytes: Buffer, field: string): GifScreen {
  const descriptorEnd = HEADER_LENGTH + SCREEN_DESCRIPTOR_LENGTH;
  if (bytes.length < descriptorEnd) throw truncatedImage(field, 'gif');
  const packed = bytes[10] as number;
  const blocksStart = descriptorEnd + colorTableLength(packed);
  if (blocksStart > bytes.length) throw truncatedImage(field, 'gif');
  return {
    width: bytes.readUInt16LE(6),
    height: bytes.readUInt16LE(8),
    packed,
    backgroundIndex: bytes[11] as number,
    pixelAspectRatio: bytes[12] as number,
    colorTable: bytes.subarray(descriptorEnd, blocksStart),
    blocksStart,
  };
}

/** Offset just past a run of sub-blocks (after its zero-size terminator). */
function skipSubBlocks(bytes: Buffer, from: number, field: string): number {
  let offset = from;
  for (;;) {
    const size = bytes[offset];
    if (size === undefined) throw truncatedImage(field, 'gif');
    offset += 1 + size;
    if (size === 0) return offset;
  }
}

/** Concatenates the payload of the sub-blocks starting at `from` (the LZW stream of an image). */
export function joinSubBlocks(bytes: Buffer, from: number, field: string): Buffer {
  const parts: Buffer[] = [];
  let offset = from;
  for (;;) {
    const size = bytes[offset];
    if (size === undefined || offset + 1 + size > bytes.length) throw truncatedImage(field, 'gif');
    if (size === 0) return Buffer.concat(parts);
    parts.push(bytes.subarray(offset + 1, offset + 1 + size));
    offset += 1 + size;
  }
}

/**
 * Yields blocks from the first one after the screen to the trailer, without decompressing anything
 * (cost: one step per sub-block). Throws `corrupt` on an unknown block or when the bytes end first.
 */
export function* gifBlocks(bytes: Buffer, field: string): Generator<GifBlock> {
  let offset = readGifScreen(bytes, field).blocksStart;
  for (;;) {
    const introducer = bytes[offset];
    if (introducer === undefined) throw truncatedImage(field, 'gif');
    if (introducer === TRAILER) {
      yield { kind: 'trailer', start: offset };
      return;
    }
    if (introducer === EXTENSION_INTRODUCER) {
      const label = bytes[offset + 1];
      if (label === undefined) throw truncatedImage(field, 'gif');
      const end = skipSubBlocks(bytes, offset + 2, field);
      yield { kind: 'extension', label, start: offset, end };
      offset = end;
      continue;
    }
    if (introducer === IMAGE_SEPARATOR) {
      const image = readImageBlock(bytes, offset, field);
      yield image;
      offset = image.end;
      continue;
    }
    throw corruptImage(field, 'the GIF file has an unknown block');
  }
}

function readImageBlock(bytes: Buffer, start: number, field: string): GifImageBlock {
  const descriptorEnd = start + IMAGE_DESCRIPTOR_LENGTH;
  if (descriptorEnd > bytes.length) throw truncatedImage(field, 'gif');
  const packed = bytes[start + 9] as number;
  const tableEnd = descriptorEnd + colorTableLength(packed);
  const lzwMinimumCodeSize = bytes[tableEnd];
  if (lzwMinimumCodeSize === undefined) throw truncatedImage(field, 'gif');
  // Pixel values are LZW literals below 2^size, and giflib refuses sizes above 8.
  if (lzwMinimumCodeSize < 1 || lzwMinimumCodeSize > 8) throw corruptImage(field, 'the GIF image data is malformed');
  return {
    kind: 'image',
    left: bytes.readUInt16LE(start + 1),
    top: bytes.readUInt16LE(start + 3),
    width: bytes.readUInt16LE(start + 5),
    height: bytes.readUInt16LE(start + 7),
    packed,
    colorTable: bytes.subarray(descriptorEnd, tableEnd),
    lzwMinimumCodeSize,
    dataStart: tableEnd + 1,
    end: skipSubBlocks(bytes, tableEnd + 1, field),
  };
}

/** The first image, or `corrupt` when the file ends without one. */
export function firstGifImage(bytes: Buffer, field: string): GifImageBlock {
  for (const block of gifBlocks(bytes, field)) {
    if (block.kind === 'image') return block;
  }
  throw corruptImage(field, 'the GIF file holds no image');
}

/**
 * Size = the logical screen grown to contain the first frame (frames may stick out of the screen;
 * browsers show them whole, and the rebuilt first-frame GIF declares this size). The walk stops at
 * the second image, so a GIF with thousands of frames is not read to the end here.
 */
export function readGifHeader(bytes: Buffer, field: string): HeaderFacts {
  const screen = readGifScreen(bytes, field);
  let first: GifImageBlock | undefined;
  let animated = false;
  for (const block of gifBlocks(bytes, field)) {
    if (block.kind !== 'image') continue;
    if (first !== undefined) {
      animated = true;
      break;
    }
    first = block;
  }
  if (first === undefined) throw corruptImage(field, 'the GIF file holds no image');
  if (first.width === 0 || first.height === 0) {
    throw corruptImage(field, `the first GIF frame has an impossible size (${first.width}x${first.height})`);
  }
  return {
    width: Math.max(screen.width, first.left + first.width),
    height: Math.max(screen.height, first.top + first.height),
    animated,
  };
}

/** Walks every block to the trailer: a GIF cut short (a partial download) is refused here. */
export function assertGifComplete(bytes: Buffer, field: string): void {
  let images = 0;
  for (const block of gifBlocks(bytes, field)) {
    if (block.kind === 'image') images += 1;
  }
  if (images === 0) throw corruptImage(field, 'the GIF file holds no image');
}
