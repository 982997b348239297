import { crc32 } from 'node:zlib';
import { corruptImage } from './card-image-error.ts';
import { type HeaderFacts } from './image-header.ts';
import { truncatedImage } from './image-format.ts';

/**
 * PNG layout: an 8-byte signature, then chunks of `length (4, BE) | type (4) | data | CRC (4)`.
 * IHDR must come first; IEND closes the file. https://www.w3.org/TR/png-3/#5Chunk-layout
 */
const SIGNATURE_LENGTH = 8;
const CHUNK_OVERHEAD = 12;
const IHDR_LENGTH = 13;
/** The PNG specification caps widths, heights and chunk lengths at 2^31 - 1. */
const PNG_MAX_VALUE = 2 ** 31 - 1;
const CHUNK_TYPE = /^[A-Za-z]{4}$/;

export interface PngChunk {
  type: string;
  /** Offset of the chunk's data, after its length and type. */
  dataStart: number;
  dataLength: number;
  /** Offset just past the chunk's CRC. */
  end: number;
}

/**
 * Yields every chunk up to and including IEND. Throws `corrupt` when a chunk is malformed or the
 * bytes end before IEND, so a caller that walks to the end has proved the file is not truncated.
 */
export function* pngChunks(bytes: Buffer, field: string): Generator<PngChunk> {
  let offset = SIGNATURE_LENGTH;
  for (;;) {
    if (offset + CHUNK_OVERHEAD > bytes.length) throw truncatedImage(field, 'png');
    const dataLength = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (dataLength > PNG_MAX_VALUE || !CHUNK_TYPE.test(type)) throw corruptImage(field, 'the PNG file has a malformed chunk');
    const end = offset + CHUNK_OVERHEAD + dataLength;
    if (end > bytes.length) throw truncatedImage(field, 'png');
    yield { type, dataStart: offset + 8, dataLength, end };
    if (type === 'IEND') return;
    offset = end;
  }
}

export function readPngHeader(bytes: Buffer, field: string): HeaderFacts {
  const chunks = pngChunks(bytes, field);
  const first = chunks.next();
  if (first.done === true || first.value.type !== 'IHDR' || first.value.dataLength !== IHDR_LENGTH) {
    throw corruptImage(field, 'the PNG file does not start with an IHDR header');
  }
  const ihdr = first.value;
  // The CRC covers type and data. Checking it means the size we judge is the size the file meant,
  // not a bit flip, and a damaged header is reported as damaged rather than as "too large".
  const storedCrc = bytes.readUInt32BE(ihdr.dataStart + IHDR_LENGTH);
  if (crc32(bytes.subarray(ihdr.dataStart - 4, ihdr.dataStart + IHDR_LENGTH)) !== storedCrc) {
    throw corruptImage(field, 'the PNG header is damaged (checksum mismatch)');
  }
  const width = bytes.readUInt32BE(ihdr.dataStart);
  const height = bytes.readUInt32BE(ihdr.dataStart + 4);
  if (width === 0 || height === 0 || width > PNG_MAX_VALUE || height > PNG_MAX_VALUE) {
    throw corruptImage(field, `the PNG header declares an impossible size (${width}x${height})`);
  }

  // APNG puts acTL before the first IDAT. Decoding needs nothing special: node-canvas reads PNGs
  // through cairo and libpng, which skip acTL/fcTL/fdAT as unknown ancillary chunks and decode only
  // IDAT, the default image: the first frame, or the still fallback some APNGs carry.
  let animated = false;
  for (const chunk of chunks) {
    if (chunk.type === 'acTL') animated = true;
    if (chunk.type === 'IDAT' || chunk.type === 'IEND') break;
  }
  return { width, height, animated };
}

/** Walks every chunk to IEND: a PNG cut short anywhere (a partial download) is refused here. */
export function assertPngComplete(bytes: Buffer, field: string): void {
  let hasImageData = false;
  for (const chunk of pngChunks(bytes, field)) {
    if (chunk.type === 'IDAT') hasImageData = true;
  }
  if (!hasImageData) throw corruptImage(field, 'the PNG file holds no image data');
}
