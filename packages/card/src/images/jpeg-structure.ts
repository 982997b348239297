import { CardImageError, corruptImage } from './card-image-error.ts';
import { type HeaderFacts } from './image-header.ts';
import { truncatedImage } from './image-format.ts';

/**
 * JPEG layout (ITU T.81 annex B): SOI, then marker segments `FF xx | length (2, BE, counts itself) |
 * data`, any number of 0xFF fill bytes allowed before a marker. After each SOS comes entropy-coded
 * data in which a literal 0xFF is stuffed as `FF 00` and RSTn markers may appear; the next real
 * marker ends the scan. EOI closes the image.
 */
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;

/**
 * A progressive JPEG may split its data into any number of scans, and the decoder reprocesses the
 * whole coefficient buffer for each one: a few kilobytes of tiny scans can cost minutes of CPU
 * (libjpeg-turbo's `-maxscans` guard exists for this attack). Real encoders write about 3 to 20.
 */
export const MAX_JPEG_SCANS = 100;

/** SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range but are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers that stand alone, without a length: TEM and RST0..RST7. */
function isStandalone(marker: number): boolean {
  return marker === TEM || (marker >= 0xd0 && marker <= 0xd7);
}

export interface JpegSegment {
  marker: number;
  /** Offset of the segment's data, after the marker and its length. */
  dataStart: number;
  /** Offset just past the segment (for SOS, just past its header, before the entropy-coded data). */
  end: number;
}

/**
 * Yields each marker segment in order, skipping the entropy-coded data after SOS, and stops after
 * EOI. Throws `corrupt` when the structure is malformed or the bytes end before EOI.
 */
export function* jpegSegments(bytes: Buffer, field: string): Generator<JpegSegment> {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) throw corruptImage(field, 'the JPEG file does not start with SOI');
  let offset = 2;
  let afterScanHeader = false;
  for (;;) {
    if (afterScanHeader) offset = skipEntropyCodedData(bytes, offset, field);
    if (offset >= bytes.length) throw truncatedImage(field, 'jpeg');
    if (bytes[offset] !== 0xff) throw corruptImage(field, 'the JPEG file has data where a marker should be');
    while (bytes[offset + 1] === 0xff) offset += 1; // fill bytes
    if (offset + 1 >= bytes.length) throw truncatedImage(field, 'jpeg');
    const marker = bytes[offset + 1] as number;
    offset += 2;

    if (marker === EOI) {
      yield { marker, dataStart: offset, end: offset };
      return;
    }
    if (marker === 0x00 || marker === SOI) throw corruptImage(field, 'the JPEG file has a misplaced marker');
    if (isStandalone(marker)) {
      yield { marker, dataStart: offset, end: offset };
      continue;
    }
    if (offset + 2 > bytes.length) throw truncatedImage(field, 'jpeg');
    const length = bytes.readUInt16BE(offset);
    if (length < 2) throw corruptImage(field, 'the JPEG file has a malformed segment');
    const end = offset + length;
    if (end > bytes.length) throw truncatedImage(field, 'jpeg');
    yield { marker, dataStart: offset + 2, end };
    offset = end;
    afterScanHeader = marker === SOS;
  }
}

/**
 * Returns the offset of the 0xFF that starts the first real marker after a scan's entropy-coded
 * data. `FF 00` (a stuffed data byte) and RSTn belong to the scan.
 */
function skipEntropyCodedData(bytes: Buffer, from: number, field: string): number {
  let search = from;
  for (;;) {
    const candidate = bytes.indexOf(0xff, search);
    if (candidate === -1) throw truncatedImage(field, 'jpeg');
    let next = candidate + 1;
    while (bytes[next] === 0xff) next += 1;
    if (next >= bytes.length) throw truncatedImage(field, 'jpeg');
    const byte = bytes[next] as number;
    if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) {
      search = next + 1;
      continue;
    }
    return candidate;
  }
}

/** Scans markers (skipping APPn, EXIF thumbnails, tables...) up to the first SOFn and reads its size. */
export function readJpegHeader(bytes: Buffer, field: string): HeaderFacts {
  for (const segment of jpegSegments(bytes, field)) {
    if (segment.marker === SOS || segment.marker === EOI) break;
    if (!isStartOfFrame(segment.marker)) continue;
    // precision (1) | height (2) | width (2) | component count (1)
    if (segment.end - segment.dataStart < 6) throw corruptImage(field, 'the JPEG frame header is malformed');
    const height = bytes.readUInt16BE(segment.dataStart + 1);
    const width = bytes.readUInt16BE(segment.dataStart + 3);
    // Height 0 means "given later by a DNL marker", which libjpeg does not support.
    if (width === 0 || height === 0) {
      throw corruptImage(field, `the JPEG header declares an impossible size (${width}x${height})`);
    }
    return { width, height, animated: false };
  }
  throw corruptImage(field, 'the JPEG file has no frame header before its image data');
}

/**
 * Walks every segment and scan to EOI, so a JPEG cut short (a partial download) is refused before
 * libjpeg would quietly paint the missing part grey. Bytes after EOI are ignored, as decoders do:
 * phones append data there (Motion Photo videos, maker trailers), and some servers pad with zeros.
 */
export function assertJpegComplete(bytes: Buffer, field: string): void {
  let scans = 0;
  for (const segment of jpegSegments(bytes, field)) {
    if (segment.marker !== SOS) continue;
    scans += 1;
    if (scans > MAX_JPEG_SCANS) {
      throw new CardImageError('too_large', field, `the JPEG has more than ${MAX_JPEG_SCANS} scans; the limit is ${MAX_JPEG_SCANS}`);
    }
  }
  if (scans === 0) throw corruptImage(field, 'the JPEG file holds no image data');
}
