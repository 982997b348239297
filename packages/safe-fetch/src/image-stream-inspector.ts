import { imageSize } from 'image-size';
import { ImageFetchError } from './image-fetch-error.ts';
import { IMAGE_SNIFF_LENGTH, imageSizeProblem, type ImageFormat, judgeImageFormat, walkGifBlocks } from '@utility-api/render-jobs';

type PixelSize = { width: number; height: number };

/**
 * Refuses, as `too_many_pixels`, a size over the per-image limits of the job contract's image rules,
 * checked on the header while the body streams, so that a bomb costs a few dozen bytes instead of
 * its whole body. The card checks the same rules again when it decodes, whatever the fetcher said.
 */
function assertWithinImageLimits(size: PixelSize, field: string): void {
  const problem = imageSizeProblem(size);
  if (problem !== undefined) throw new ImageFetchError('too_many_pixels', field, problem);
}

/**
 * The accepted format a body is (the job contract's image rules), or `unsupported_format`. Called once
 * at least IMAGE_SNIFF_LENGTH bytes are in (or the body ended shorter).
 */
function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  const judged = judgeImageFormat(bytes);
  if ('problem' in judged) throw new ImageFetchError('unsupported_format', field, judged.problem);
  return judged.format;
}

/** What the header says: the format from the magic bytes, the size from image-size. */
type ImageHeader = PixelSize & { format: ImageFormat };

export type InspectedImage = { bytes: Buffer; header: ImageHeader };

/**
 * Bytes that must be in before image-size's answer is trusted. It reads fixed offsets and, for a
 * lossless WebP, quietly reads missing bytes as zero instead of throwing; every field it reads for
 * these formats lies within these lengths (PNG: IHDR's size at 16-24; GIF: the screen at 6-10;
 * WebP: the first chunk's header at 20-30). A JPEG's size has no fixed place: image-size throws
 * until the frame header is in.
 */
const HEADER_LENGTH: Readonly<Record<ImageFormat, number>> = { png: 24, jpeg: 4, gif: 10, webp: 30 };

/** image-size's name for each accepted format; any other answer means the bytes are inconsistent. */
const IMAGE_SIZE_TYPE: Readonly<Record<ImageFormat, string>> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/**
 * How far into a body the size is looked for. A JPEG's frame header follows its metadata segments
 * (Exif, ICC, XMP: tens of kilobytes in practice); a body with no size in its first MiB is refused
 * rather than rescanned, which also bounds the work image-size does on a hostile body.
 */
const HEADER_SEARCH_BYTES = 1024 * 1024;

/**
 * Judges a response body while it streams in, so a bad one costs as few bytes as possible:
 * - the byte cap, chunk by chunk (a lying or absent Content-Length changes nothing);
 * - the format by magic bytes once 12 bytes are in: an HTML page labelled image/png goes no further;
 * - the pixel limits as soon as image-size can read the size (and, for a GIF, as soon as the first
 *   frame's extent is declared: see gifFirstFrameExtent).
 * Every refusal is an `ImageFetchError` naming the field.
 *
 * Inspections run again only when the body has doubled since the last one, so a sender splitting
 * the body into single bytes cannot make the header reading quadratic.
 */
export class ImageStreamInspector {
  readonly #field: string;
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #length = 0;
  #inspectedLength = 0;
  #format: ImageFormat | undefined;
  #header: ImageHeader | undefined;

  constructor(field: string, maxBytes: number) {
    this.#field = field;
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (this.#length + chunk.length > this.#maxBytes) throw tooManyBytes(this.#field, this.#maxBytes);
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#header === undefined && this.#length >= 2 * this.#inspectedLength) this.#inspect(this.#joined(), false);
  }

  /** At the end of the body: the format and the size must be readable, within the limits. */
  finish(): InspectedImage {
    const bytes = this.#joined();
    if (this.#header === undefined) this.#inspect(bytes, true);
    if (this.#header === undefined) throw new Error('the image header was not read'); // #inspect throws first
    return { bytes, header: this.#header };
  }

  #inspect(bytes: Buffer, complete: boolean): void {
    this.#inspectedLength = bytes.length;
    if (this.#format === undefined) {
      if (bytes.length < IMAGE_SNIFF_LENGTH && !complete) return;
      this.#format = sniffImageFormat(bytes, this.#field);
    }
    const format = this.#format;
    const frame = format === 'gif' ? gifFirstFrameExtent(bytes) : undefined;
    if (frame !== undefined) assertWithinImageLimits(frame, this.#field);
    const size = readSize(bytes.subarray(0, HEADER_SEARCH_BYTES), format, this.#field);
    if (size === undefined || (format === 'gif' && frame === undefined)) {
      if (bytes.length >= HEADER_SEARCH_BYTES) throw sizeNotFound(format, this.#field);
      if (complete) throw unreadableHeader(format, this.#field);
      return;
    }
    const header = { format, width: Math.max(size.width, frame?.width ?? 0), height: Math.max(size.height, frame?.height ?? 0) };
    assertWithinImageLimits(header, this.#field);
    this.#header = header;
  }

  #joined(): Buffer {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks, this.#length)];
    return this.#chunks[0] ?? Buffer.alloc(0);
  }
}

/** The size image-size reads from this prefix, or `undefined` while it cannot read one yet. */
function readSize(prefix: Buffer, format: ImageFormat, field: string): PixelSize | undefined {
  if (prefix.length < HEADER_LENGTH[format]) return undefined;
  if (format === 'jpeg' && isStartOfFrame(prefix[3])) {
    // image-size starts at a JPEG's second segment (the first is an APPn in most encoders' output),
    // so a frame header placed first (a JPEG stripped of its metadata) is read here: after SOI and
    // the marker come the segment length (2 bytes), the precision (1), the height and the width.
    if (prefix.length < 11) return undefined;
    return { height: prefix.readUInt16BE(7), width: prefix.readUInt16BE(9) };
  }
  let size: ReturnType<typeof imageSize>;
  try {
    // A copy: image-size reads through DataViews over the whole ArrayBuffer, and a Buffer from
    // Node's shared pool would let it read its neighbours' bytes as if they were this header's.
    size = imageSize(new Uint8Array(prefix));
  } catch {
    return undefined; // not all there yet (a prefix cut inside the header throws)
  }
  if (size.type !== IMAGE_SIZE_TYPE[format]) throw unreadableHeader(format, field);
  return { width: size.width, height: size.height };
}

/** SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number | undefined): boolean {
  return marker !== undefined && marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

const FORMAT_NAMES: Readonly<Record<ImageFormat, string>> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP' };

function sizeNotFound(format: ImageFormat, field: string): ImageFetchError {
  return new ImageFetchError('corrupt', field, `the ${FORMAT_NAMES[format]} file holds more than 1 MiB before its image size (metadata before the image is limited to 1 MiB)`);
}

function unreadableHeader(format: ImageFormat, field: string): ImageFetchError {
  return new ImageFetchError('corrupt', field, `the ${FORMAT_NAMES[format]} file is truncated or its header is malformed`);
}

export function tooManyBytes(field: string, maxBytes: number): ImageFetchError {
  return new ImageFetchError('too_large', field, `the image is larger than ${describeBytes(maxBytes)}`);
}

/** "8 MiB", or the exact count for caps that are not whole mebibytes. */
export function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  if (Number.isInteger(mebibytes)) return `${mebibytes} MiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * How far the first frame of a GIF reaches: its image descriptor's `left + width` and
 * `top + height`, or `undefined` until the descriptor has arrived (or when the blocks before it are
 * not a GIF's: the header check then refuses the body). image-size reports only the logical screen,
 * but decoders grow the canvas to hold the first frame, so a 1x1 screen can carry a 20000x20000
 * frame; the fetcher checks both against the pixel limits. The walk is the card's (render-jobs).
 */
function gifFirstFrameExtent(bytes: Buffer): PixelSize | undefined {
  for (const block of walkGifBlocks(bytes)) {
    if (block.kind === 'image') return { width: block.left + block.width, height: block.top + block.height };
    if (block.kind !== 'screen' && block.kind !== 'extension') return undefined;
  }
  return undefined;
}
