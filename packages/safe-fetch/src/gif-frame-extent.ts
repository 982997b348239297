import type { PixelSize } from './image-stream-inspector.ts';

/** After the 6-byte signature: screen width, height (LE), packed flags, background, aspect. */
const SCREEN_DESCRIPTOR_END = 13;
const EXTENSION_INTRODUCER = 0x21;
const IMAGE_SEPARATOR = 0x2c;

/**
 * How far the first frame of a GIF reaches: its image descriptor's `left + width` and
 * `top + height`, or `undefined` until the descriptor has arrived. image-size reports only the
 * logical screen, but decoders grow the canvas to hold the first frame, so a 1x1 screen can carry
 * a 20000x20000 frame; the fetcher checks both against the pixel limits.
 */
export function gifFirstFrameExtent(bytes: Buffer): PixelSize | undefined {
  if (bytes.length < SCREEN_DESCRIPTOR_END) return undefined;
  const flags = bytes[10] ?? 0;
  const globalColorTable = (flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1);
  let offset = SCREEN_DESCRIPTOR_END + globalColorTable;
  // Extensions (graphic control, comments, application data) are `21 <label>` then sub-blocks
  // of `<length> <bytes>`, ended by a zero length.
  while (bytes[offset] === EXTENSION_INTRODUCER) {
    offset += 2;
    for (let length = bytes[offset]; length !== 0; length = bytes[offset]) {
      if (length === undefined) return undefined;
      offset += 1 + length;
    }
    offset += 1;
  }
  if (bytes[offset] !== IMAGE_SEPARATOR || offset + 9 > bytes.length) return undefined;
  return {
    width: bytes.readUInt16LE(offset + 1) + bytes.readUInt16LE(offset + 5),
    height: bytes.readUInt16LE(offset + 3) + bytes.readUInt16LE(offset + 7),
  };
}
