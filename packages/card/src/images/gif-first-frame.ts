import { corruptImage } from './card-image-error.ts';
import { decodeGifLzw, encodeGifLzwUncompressed } from './gif-lzw.ts';
import { GRAPHIC_CONTROL_LABEL, INTERLACED, type GifImageBlock, gifBlocks, joinSubBlocks, readGifScreen } from './gif-structure.ts';

/** Color-table flag set, size bits 7: 2^(7+1) = 256 entries. */
const FULL_TABLE_FLAGS = 0x87;
const FULL_TABLE_LENGTH = 256 * 3;

/**
 * Rebuilds a GIF as a minimal still holding only its first frame, because of how node-canvas
 * decodes GIFs (node-canvas 3.2, src/Image.cc, with giflib 5):
 *
 * - It calls DGifSlurp, which decompresses EVERY frame into memory before node-canvas looks at the
 *   first one: 5,000 frames of 1000x1000 is 5 GB from a file of a few hundred kilobytes.
 *   The rebuilt file has one frame, so giflib allocates for that frame only.
 * - It looks colors up as `Colors[pixel]` without checking the pixel against the table size, so a
 *   2-color table with pixel value 255 reads past the table (leaking heap bytes into the card we
 *   return). Every color table is padded to 256 entries, making any 8-bit value a valid index.
 * - It reads the transparent index as byte 3 of the graphic control extension whatever the block's
 *   length. The extension is rewritten in its canonical 4-byte form, or dropped when malformed.
 * - A frame sticking out of the logical screen is copied with the wrong stride (its rows shear).
 *   The rebuilt screen is grown to contain the frame, which is also how browsers show it.
 * - For interlaced frames it de-interlaces rows that giflib has already de-interlaced, scrambling
 *   them, and reads a screen's worth of pixels from a frame that may be smaller (a heap over-read).
 *   Interlaced frames are decoded here and re-encoded in plain row order.
 *
 * What is kept: header, screen descriptor, global color table, the graphic control extension that
 * precedes the first image (transparency), the first image, and a trailer. Application extensions
 * (NETSCAPE2.0 looping), comments and plain-text extensions are dropped: none affect frame one.
 */
export function rebuildGifFirstFrame(bytes: Buffer, field: string): Buffer {
  const screen = readGifScreen(bytes, field);
  let graphicControl: Buffer | undefined;
  let image: GifImageBlock | undefined;
  for (const block of gifBlocks(bytes, field)) {
    if (block.kind === 'image') {
      image = block;
      break;
    }
    if (block.kind === 'trailer') break;
    if (block.label === GRAPHIC_CONTROL_LABEL) graphicControl = canonicalGraphicControl(bytes, block.start);
  }
  if (image === undefined) throw corruptImage(field, 'the GIF file holds no image');
  if (screen.colorTable.length === 0 && image.colorTable.length === 0) {
    throw corruptImage(field, 'the GIF file has no color table');
  }

  const width = Math.max(screen.width, image.left + image.width);
  const height = Math.max(screen.height, image.top + image.height);
  // Unreachable after the size limits, but a GIF cannot declare more than 65535 px a side.
  if (width > 0xffff || height > 0xffff) throw corruptImage(field, 'the first GIF frame lies outside any possible image');
  const screenDescriptor = Buffer.alloc(7);
  screenDescriptor.writeUInt16LE(width, 0);
  screenDescriptor.writeUInt16LE(height, 2);
  // Keep color resolution and sort flag (0x78); declare a full 256-entry table when there is one.
  screenDescriptor[4] = (screen.packed & 0x78) | (screen.colorTable.length > 0 ? FULL_TABLE_FLAGS : 0);
  screenDescriptor[5] = screen.backgroundIndex;
  screenDescriptor[6] = screen.pixelAspectRatio;

  const imageDescriptor = Buffer.alloc(10);
  imageDescriptor[0] = 0x2c;
  imageDescriptor.writeUInt16LE(image.left, 1);
  imageDescriptor.writeUInt16LE(image.top, 3);
  imageDescriptor.writeUInt16LE(image.width, 5);
  imageDescriptor.writeUInt16LE(image.height, 7);
  // Keep the sort flag (0x20); the interlace flag is always cleared because rows are written in order.
  imageDescriptor[9] = (image.packed & 0x20) | (image.colorTable.length > 0 ? FULL_TABLE_FLAGS : 0);

  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'), // 89a: the graphic control extension does not exist in 87a
    screenDescriptor,
    padColorTable(screen.colorTable),
    graphicControl ?? Buffer.alloc(0),
    imageDescriptor,
    padColorTable(image.colorTable),
    imageDataInRowOrder(bytes, image, field),
    Buffer.from([0x3b]),
  ]);
}

function padColorTable(table: Buffer): Buffer {
  if (table.length === 0) return table;
  const padded = Buffer.alloc(FULL_TABLE_LENGTH);
  table.copy(padded);
  return padded;
}

/**
 * `21 F9 04 packed delay(2) transparent-index 00`, from an extension at `start` whose first
 * sub-block has at least 4 bytes; `undefined` (the extension is dropped) otherwise.
 */
function canonicalGraphicControl(bytes: Buffer, start: number): Buffer | undefined {
  const size = bytes[start + 2] ?? 0;
  if (size < 4) return undefined;
  const fields = bytes.subarray(start + 3, start + 7);
  return Buffer.concat([Buffer.from([0x21, GRAPHIC_CONTROL_LABEL, 0x04]), fields, Buffer.from([0x00])]);
}

/** The image's LZW data (minimum code size byte, sub-blocks, terminator), with rows in top-to-bottom order. */
function imageDataInRowOrder(bytes: Buffer, image: GifImageBlock, field: string): Buffer {
  if ((image.packed & INTERLACED) === 0) return bytes.subarray(image.dataStart - 1, image.end);
  const pixelCount = image.width * image.height;
  const interlaced = decodeGifLzw(joinSubBlocks(bytes, image.dataStart, field), image.lzwMinimumCodeSize, pixelCount);
  if (interlaced === undefined) throw corruptImage(field, 'the GIF image data is damaged');
  return encodeGifLzwUncompressed(deinterlace(interlaced, image.width, image.height));
}

/** Interlaced GIFs store rows in four passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
const INTERLACE_PASSES = [
  { first: 0, step: 8 },
  { first: 4, step: 8 },
  { first: 2, step: 4 },
  { first: 1, step: 2 },
] as const;

function deinterlace(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const rows = new Uint8Array(pixels.length);
  let storedRow = 0;
  for (const { first, step } of INTERLACE_PASSES) {
    for (let row = first; row < height; row += step) {
      rows.set(pixels.subarray(storedRow * width, (storedRow + 1) * width), row * width);
      storedRow += 1;
    }
  }
  return rows;
}
