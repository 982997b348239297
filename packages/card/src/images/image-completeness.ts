import { assertGifComplete } from './gif-structure.ts';
import { type ImageFormat } from './image-format.ts';
import { assertJpegComplete } from './jpeg-structure.ts';
import { assertPngComplete } from './png-structure.ts';
import { assertWebpComplete } from './webp-structure.ts';

/**
 * Refuses, as `corrupt`, a file that ends before its format's closing structure, by walking its
 * blocks without decompressing them. The decoders report success on truncated files (libjpeg
 * paints the missing part grey; cairo's PNG loader returns whatever rows it got), so without this a
 * half-downloaded image would be drawn half-grey on the card instead of being reported.
 * - PNG: every chunk fits, up to IEND.
 * - JPEG: every segment and scan fits, up to EOI (bytes after EOI are ignored).
 * - GIF: every block fits, up to the trailer.
 * - WebP: the RIFF size fits the buffer and every chunk fits the RIFF size.
 */
export function assertImageComplete(bytes: Buffer, format: ImageFormat, field: string): void {
  switch (format) {
    case 'png':
      return assertPngComplete(bytes, field);
    case 'jpeg':
      return assertJpegComplete(bytes, field);
    case 'gif':
      return assertGifComplete(bytes, field);
    case 'webp':
      return assertWebpComplete(bytes, field);
  }
}
