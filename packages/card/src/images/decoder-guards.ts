import { MAX_JPEG_SCANS } from '@utility-api/render-jobs';
import { CardImageError, corruptImage } from './card-image-error.ts';

/**
 * What libvips does not bound by itself, checked on the raw bytes before it sees them. Both checks
 * walk bytes and decompress nothing, so their cost is linear in a file already capped at 8 MB.
 */

/**
 * PNG layout: an 8-byte signature, then chunks of `length (4, BE) | type (4) | data | CRC (4)`.
 * https://www.w3.org/TR/png-3/#5Chunk-layout
 */
const SIGNATURE_LENGTH = 8;
const CHUNK_OVERHEAD = 12;

/**
 * Ancillary chunks that change what the pixels look like, kept: transparency for palette and
 * grey images, and APNG's frame chunks (libpng ignores them; they are kept so the file stays
 * the animation it was). Every other ancillary chunk is metadata to a card.
 */
const KEPT_ANCILLARY = new Set(['tRNS', 'acTL', 'fcTL', 'fdAT']);

/**
 * Drops every PNG metadata chunk (tEXt, zTXt, iTXt, iCCP, eXIf, private chunks...) before libpng
 * sees the file. libpng inflates each compressed text chunk while reading the header and keeps
 * them all: 1,000 zTXt chunks of 7.7 KB, each inflating to 7.9 MB, took 3.8 GB and 15 s in
 * libvips 8.18 for a 1x1 image, and libvips offers no switch to skip them. Walking the chunk list
 * reads 12 bytes per chunk and inflates nothing, so metadata costs nothing however it is built.
 * Critical chunks (upper-case first letter: IHDR, PLTE, IDAT, IEND) are always kept; a chunk
 * list that runs past the end of the bytes is `corrupt`. Returns the input itself when there was
 * nothing to drop.
 */
export function stripPngMetadata(bytes: Buffer, field: string): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, SIGNATURE_LENGTH)];
  let dropped = false;
  for (const chunk of walkPngChunks(bytes, field)) {
    const critical = (chunk.raw[4]! & 0x20) === 0;
    if (critical || KEPT_ANCILLARY.has(chunk.type)) kept.push(chunk.raw);
    else dropped = true;
  }
  return dropped ? Buffer.concat(kept) : bytes;
}

/** One PNG chunk: its type, its data, and the whole chunk as written (length, type, data, CRC). */
export interface PngChunk {
  type: string;
  data: Buffer;
  raw: Buffer;
}

/**
 * The chunks of a PNG up to IEND, read from their 12-byte frames only (nothing is inflated or
 * copied): a chunk list that runs past the end of the bytes is `corrupt`.
 */
export function* walkPngChunks(bytes: Buffer, field: string): Generator<PngChunk> {
  let offset = SIGNATURE_LENGTH;
  while (offset < bytes.length) {
    if (offset + CHUNK_OVERHEAD > bytes.length) throw corruptImage(field, 'the PNG file is truncated or damaged');
    const length = bytes.readUInt32BE(offset);
    const end = offset + CHUNK_OVERHEAD + length;
    if (end > bytes.length) throw corruptImage(field, 'the PNG file is truncated or damaged');
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    yield { type, data: bytes.subarray(offset + 8, offset + 8 + length), raw: bytes.subarray(offset, end) };
    offset = end;
    if (type === 'IEND') break;
  }
}

/**
 * Refuses, as `too_large`, a JPEG with more than {@link MAX_JPEG_SCANS} start-of-scan markers.
 * Entropy-coded data stuffs every 0xFF byte with 0x00, so FF DA occurs only as a marker (or inside
 * a metadata segment, where a count that errs high refuses nothing a real photo has).
 */
export function assertJpegScanLimit(bytes: Buffer, field: string): void {
  let scans = 0;
  for (let at = bytes.indexOf(START_OF_SCAN); at !== -1; at = bytes.indexOf(START_OF_SCAN, at + 2)) {
    scans += 1;
    if (scans > MAX_JPEG_SCANS) {
      throw new CardImageError('too_large', field, `the JPEG has more than ${MAX_JPEG_SCANS} scans; the limit is ${MAX_JPEG_SCANS}`);
    }
  }
}

const START_OF_SCAN = Buffer.from([0xff, 0xda]);
