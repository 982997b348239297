import { readGifHeader } from './gif-structure.ts';
import { type ImageFormat } from './image-format.ts';
import { readJpegHeader } from './jpeg-structure.ts';
import { readPngHeader } from './png-structure.ts';
import { readWebpHeader } from './webp-structure.ts';

/** What a file's header says about it, read without decoding a single pixel. */
export interface ImageHeader {
  format: ImageFormat;
  /**
   * The size the decoder will allocate: PNG IHDR, JPEG SOF, WebP canvas, and for GIF the logical
   * screen grown to contain the first frame (a frame may stick out of the screen it belongs to).
   */
  width: number;
  height: number;
  /** The file holds more than one frame (APNG acTL, GIF second image, WebP ANIM flag). */
  animated: boolean;
}

/** The size part of a header, as each format's reader produces it. */
export type HeaderFacts = Omit<ImageHeader, 'format'>;

/**
 * Reads the dimensions from the header alone, so that {@link assertWithinImageLimits} can refuse a
 * decompression bomb before any decoder allocates for it. Throws `corrupt` for headers that are
 * truncated, malformed or declare a zero or impossible size.
 */
export function readImageHeader(bytes: Buffer, format: ImageFormat, field: string): ImageHeader {
  const facts = readHeaderFacts(bytes, format, field);
  return { format, ...facts };
}

function readHeaderFacts(bytes: Buffer, format: ImageFormat, field: string): HeaderFacts {
  switch (format) {
    case 'png':
      return readPngHeader(bytes, field);
    case 'jpeg':
      return readJpegHeader(bytes, field);
    case 'gif':
      return readGifHeader(bytes, field);
    case 'webp':
      return readWebpHeader(bytes, field);
  }
}
