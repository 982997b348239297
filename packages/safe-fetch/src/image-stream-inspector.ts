import {
  assertWithinImageLimits,
  CardImageError,
  type ImageFormat,
  type ImageHeader,
  readImageHeader,
  sniffImageFormat,
} from '@utility-api/card/image-inspection';
import { declaredSizeLowerBound } from './declared-size.ts';
import { ImageFetchError } from './image-fetch-error.ts';

/** Enough bytes to tell every accepted format apart (WebP's `RIFF size WEBP` is the longest). */
const SNIFF_LENGTH = 12;

export interface InspectedImage {
  bytes: Buffer;
  header: ImageHeader;
}

/**
 * Judges a response body while it streams in, so a bad one costs as few bytes as possible:
 * - the byte cap, chunk by chunk (a lying or absent Content-Length changes nothing);
 * - the format by magic bytes once 12 bytes are in: an HTML page labelled image/png goes no further;
 * - the pixel limits as soon as the size is declared (see declared-size.ts), then against the full
 *   header once `readImageHeader` can read it.
 * Image problems are thrown as the card's `CardImageError`, the byte cap as `ImageFetchError`.
 *
 * Inspections run again only when the body has doubled since the last one, so a sender splitting
 * the body into single bytes cannot make the header parsing quadratic.
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

  /** At the end of the body: the format and the full header must be readable, within the limits. */
  finish(): InspectedImage {
    const bytes = this.#joined();
    this.#inspect(bytes, true);
    if (this.#header === undefined) throw new Error('the image header was not read'); // #inspect throws first
    return { bytes, header: this.#header };
  }

  #inspect(bytes: Buffer, complete: boolean): void {
    this.#inspectedLength = bytes.length;
    if (this.#format === undefined) {
      if (bytes.length < SNIFF_LENGTH && !complete) return;
      this.#format = sniffImageFormat(bytes, this.#field);
    }
    const declared = declaredSizeLowerBound(bytes, this.#format);
    if (declared !== undefined) assertWithinImageLimits(declared, this.#field);
    let header: ImageHeader;
    try {
      header = readImageHeader(bytes, this.#format, this.#field);
    } catch (error) {
      // Mid-stream, `corrupt` mostly means "not all there yet"; at the end it is the verdict.
      if (!complete && error instanceof CardImageError && error.reason === 'corrupt') return;
      throw error;
    }
    assertWithinImageLimits(header, this.#field);
    this.#header = header;
  }

  #joined(): Buffer {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks, this.#length)];
    return this.#chunks[0] ?? Buffer.alloc(0);
  }
}

export function tooManyBytes(field: string, maxBytes: number): ImageFetchError {
  return new ImageFetchError('too_large', field, `the image is larger than ${describeBytes(maxBytes)}`);
}

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  if (Number.isInteger(mebibytes)) return `${mebibytes} MiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
