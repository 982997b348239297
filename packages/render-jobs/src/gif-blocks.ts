/**
 * The block structure of a GIF, read from its own framing (https://www.w3.org/Graphics/GIF/spec-gif89a.txt):
 * one walker for both boundaries that look inside a GIF before a decoder does. The fetcher reads the
 * first frame's extent while the body streams (packages/safe-fetch), the card counts and cuts frames
 * before libvips sees them (packages/card). Nothing is decompressed: the walk reads the fixed-size
 * headers and the one length byte of each data sub-block, so its cost is linear in the bytes and it
 * allocates one small object per block it yields.
 */

/** `GIF87a` / `GIF89a`. */
const SIGNATURE_LENGTH = 6;
/** The signature and the logical screen descriptor: width, height (LE), packed flags, background, aspect. */
const SCREEN_END = 13;
const EXTENSION_INTRODUCER = 0x21;
const IMAGE_SEPARATOR = 0x2c;
const TRAILER = 0x3b;
/** The image separator and the descriptor: left, top, width, height (LE), packed flags. */
const DESCRIPTOR_LENGTH = 10;

/**
 * One block of a GIF, as `bytes.subarray(start, end)`:
 * - `screen`: signature, logical screen descriptor and global colour table;
 * - `extension`: `21 <label>` and its sub-blocks (graphic control, comment, application, plain text);
 * - `image`: an image descriptor and its local colour table; its pixels follow as `image-data`;
 * - `image-data`: the LZW minimum code size and the compressed sub-blocks of the image before it;
 * - `trailer`: the closing `3B`.
 * The walk ends after a `trailer`, or with `truncated` (a block runs past the end of the bytes: a
 * streaming reader waits for more, a complete file is damaged) or `invalid` (a byte that starts no
 * block), whose `start` is where the walk stopped.
 */
export type GifBlock =
  | { kind: 'screen'; start: number; end: number; width: number; height: number }
  | { kind: 'extension'; start: number; end: number; label: number }
  | { kind: 'image'; start: number; end: number; left: number; top: number; width: number; height: number }
  | { kind: 'image-data' | 'trailer'; start: number; end: number }
  | { kind: 'truncated' | 'invalid'; start: number };

/** The size of a colour table from a packed-flags byte (the screen's or an image's): 0 when absent. */
function colourTableBytes(flags: number): number {
  return (flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1);
}

/** Where the sub-blocks starting at `offset` end (after their zero terminator), or -1 past the bytes. */
function subBlocksEnd(bytes: Uint8Array, offset: number): number {
  let at = offset;
  while (at < bytes.length) {
    const length = bytes[at]!;
    if (length === 0) return at + 1;
    at += 1 + length;
  }
  return -1;
}

/**
 * The blocks of a GIF whose signature was already checked (image-rules.ts), in file order; see
 * {@link GifBlock}. A reader stops iterating once it has what it needs: blocks after that are never
 * read.
 */
export function* walkGifBlocks(bytes: Uint8Array): Generator<GifBlock, void, undefined> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let block = screenBlock(view);
  yield block;
  while ('end' in block && block.kind !== 'trailer') {
    block = block.kind === 'image' ? imageDataBlock(view, block.end) : blockAt(view, block.end);
    yield block;
  }
}

function screenBlock(bytes: Buffer): GifBlock {
  if (bytes.length < SCREEN_END) return { kind: 'truncated', start: SIGNATURE_LENGTH };
  const end = SCREEN_END + colourTableBytes(bytes[10]!);
  if (end > bytes.length) return { kind: 'truncated', start: SIGNATURE_LENGTH };
  return { kind: 'screen', start: 0, end, width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** The block that starts at `offset`, between images: an extension, an image descriptor or the trailer. */
function blockAt(bytes: Buffer, offset: number): GifBlock {
  // The bytes ended between blocks, before the trailer.
  if (offset >= bytes.length) return { kind: 'truncated', start: offset };
  const introducer = bytes[offset];
  if (introducer === TRAILER) return { kind: 'trailer', start: offset, end: offset + 1 };
  if (introducer === EXTENSION_INTRODUCER) {
    const end = subBlocksEnd(bytes, offset + 2);
    return end === -1 ? { kind: 'truncated', start: offset } : { kind: 'extension', start: offset, end, label: bytes[offset + 1]! };
  }
  if (introducer !== IMAGE_SEPARATOR) return { kind: 'invalid', start: offset };
  const end = offset + DESCRIPTOR_LENGTH + (offset + DESCRIPTOR_LENGTH <= bytes.length ? colourTableBytes(bytes[offset + 9]!) : 0);
  if (end > bytes.length) return { kind: 'truncated', start: offset };
  return { kind: 'image', start: offset, end, left: bytes.readUInt16LE(offset + 1), top: bytes.readUInt16LE(offset + 3), width: bytes.readUInt16LE(offset + 5), height: bytes.readUInt16LE(offset + 7) };
}

/** An image's pixels: the LZW minimum code size byte, then sub-blocks. */
function imageDataBlock(bytes: Buffer, offset: number): GifBlock {
  const end = subBlocksEnd(bytes, offset + 1);
  return end === -1 ? { kind: 'truncated', start: offset } : { kind: 'image-data', start: offset, end };
}
