import { corruptImage } from './card-image-error.ts';
import { type HeaderFacts } from './image-header.ts';
import { truncatedImage } from './image-format.ts';

/**
 * WebP layout (RFC 9649): `RIFF | size (4, LE) | WEBP`, then chunks `fourcc | size (4, LE) | data`
 * padded to an even length. A simple file holds one `VP8 ` (lossy) or `VP8L` (lossless) chunk; an
 * extended file starts with `VP8X` (flags, canvas size) and may hold ALPH, ICCP, EXIF, XMP, and for
 * animations ANIM plus one ANMF chunk per frame, each wrapping its own ALPH/VP8/VP8L chunks.
 */
const RIFF_HEADER_LENGTH = 12;
const CHUNK_HEADER_LENGTH = 8;
const VP8X_ANIMATION_FLAG = 0x02;
export const VP8X_ALPHA_FLAG = 0x10;

export interface RiffChunk {
  fourcc: string;
  dataStart: number;
  dataLength: number;
  /** Offset just past the chunk and its padding byte. */
  end: number;
}

/**
 * Yields the chunks found between `start` and `end`. Throws `corrupt` when a chunk claims more
 * bytes than its container holds.
 */
export function* riffChunks(bytes: Buffer, start: number, end: number, field: string): Generator<RiffChunk> {
  let offset = start;
  while (offset < end) {
    if (offset + CHUNK_HEADER_LENGTH > end) throw truncatedImage(field, 'webp');
    const fourcc = bytes.toString('latin1', offset, offset + 4);
    const dataLength = bytes.readUInt32LE(offset + 4);
    const dataStart = offset + CHUNK_HEADER_LENGTH;
    if (dataStart + dataLength > end) throw truncatedImage(field, 'webp');
    // The padding byte of the very last chunk is sometimes missing; libwebp accepts that.
    const chunkEnd = Math.min(dataStart + dataLength + (dataLength % 2), end);
    yield { fourcc, dataStart, dataLength, end: chunkEnd };
    offset = chunkEnd;
  }
}

/**
 * The end of the RIFF payload. The size field must fit the bytes we have: a smaller buffer is a
 * truncated file (bytes after the RIFF payload are ignored, as libwebp does).
 */
export function riffEnd(bytes: Buffer, field: string): number {
  if (bytes.length < RIFF_HEADER_LENGTH) throw truncatedImage(field, 'webp');
  const end = CHUNK_HEADER_LENGTH + bytes.readUInt32LE(4);
  if (end > bytes.length) throw truncatedImage(field, 'webp');
  if (end < RIFF_HEADER_LENGTH + CHUNK_HEADER_LENGTH) throw corruptImage(field, 'the WebP file is empty');
  return end;
}

/** The top-level chunks of a WebP file. */
export function webpChunks(bytes: Buffer, field: string): Generator<RiffChunk> {
  return riffChunks(bytes, RIFF_HEADER_LENGTH, riffEnd(bytes, field), field);
}

/** Size declared by a `VP8 ` (lossy) bitstream's key-frame header. */
function readVp8Size(bytes: Buffer, chunk: RiffChunk, field: string): { width: number; height: number } {
  const at = chunk.dataStart;
  // frame tag (3) | start code 9D 01 2A (3) | width (2) | height (2); the top 2 bits of each size are scaling.
  if (chunk.dataLength < 10) throw corruptImage(field, 'the WebP image data is malformed');
  const isKeyFrame = ((bytes[at] as number) & 0x01) === 0;
  if (!isKeyFrame || bytes[at + 3] !== 0x9d || bytes[at + 4] !== 0x01 || bytes[at + 5] !== 0x2a) {
    throw corruptImage(field, 'the WebP image data is malformed');
  }
  return { width: bytes.readUInt16LE(at + 6) & 0x3fff, height: bytes.readUInt16LE(at + 8) & 0x3fff };
}

/** Size declared by a `VP8L` (lossless) bitstream header. */
function readVp8lSize(bytes: Buffer, chunk: RiffChunk, field: string): { width: number; height: number } {
  const at = chunk.dataStart;
  // signature 0x2F | 14 bits width-1 | 14 bits height-1 | 1 bit alpha | 3 bits version (0)
  if (chunk.dataLength < 5 || bytes[at] !== 0x2f) throw corruptImage(field, 'the WebP image data is malformed');
  const bits = bytes.readUInt32LE(at + 1);
  if (bits >>> 29 !== 0) throw corruptImage(field, 'the WebP image data is malformed');
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

/** Size declared by a VP8 or VP8L chunk, `undefined` for any other chunk. */
export function readBitstreamSize(bytes: Buffer, chunk: RiffChunk, field: string): { width: number; height: number } | undefined {
  if (chunk.fourcc === 'VP8 ') return readVp8Size(bytes, chunk, field);
  if (chunk.fourcc === 'VP8L') return readVp8lSize(bytes, chunk, field);
  return undefined;
}

/** Reads a 24-bit little-endian number, the width of most VP8X and ANMF fields. */
export function readUInt24LE(bytes: Buffer, at: number): number {
  return bytes.readUIntLE(at, 3);
}

/** The first chunk decides the layout: VP8/VP8L give the size directly, VP8X gives the canvas size and the ANIM flag. */
export function readWebpHeader(bytes: Buffer, field: string): HeaderFacts {
  const first = webpChunks(bytes, field).next();
  if (first.done === true) throw corruptImage(field, 'the WebP file holds no image');
  const chunk = first.value;
  if (chunk.fourcc === 'VP8X') {
    // flags (1) | reserved (3) | canvas width-1 (3) | canvas height-1 (3)
    if (chunk.dataLength < 10) throw corruptImage(field, 'the WebP header is malformed');
    const flags = bytes[chunk.dataStart] as number;
    return {
      width: readUInt24LE(bytes, chunk.dataStart + 4) + 1,
      height: readUInt24LE(bytes, chunk.dataStart + 7) + 1,
      animated: (flags & VP8X_ANIMATION_FLAG) !== 0,
    };
  }
  const size = readBitstreamSize(bytes, chunk, field);
  if (size === undefined) throw corruptImage(field, 'the WebP file does not start with an image header');
  if (size.width === 0 || size.height === 0) {
    throw corruptImage(field, `the WebP header declares an impossible size (${size.width}x${size.height})`);
  }
  return { ...size, animated: false };
}

/**
 * Walks every chunk inside the RIFF size (which must fit the buffer) and checks the file holds what
 * its layout promises: an image chunk, or for an animation the ANIM chunk and at least one frame.
 */
export function assertWebpComplete(bytes: Buffer, field: string): void {
  const seen = new Set<string>();
  for (const chunk of webpChunks(bytes, field)) seen.add(chunk.fourcc);
  const animated = readWebpHeader(bytes, field).animated;
  const complete = animated ? seen.has('ANIM') && seen.has('ANMF') : seen.has('VP8 ') || seen.has('VP8L');
  if (!complete) throw corruptImage(field, 'the WebP file holds no image data');
}
