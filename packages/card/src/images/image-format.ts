import { CardImageError } from './card-image-error.ts';

/** The formats a card accepts. Everything else (SVG, HTML, BMP, TIFF, AVIF, ...) is refused. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SOI_AND_MARKER = Buffer.from([0xff, 0xd8, 0xff]);
const GIF87A = Buffer.from('GIF87a', 'latin1');
const GIF89A = Buffer.from('GIF89a', 'latin1');
const RIFF = Buffer.from('RIFF', 'latin1');
const WEBP = Buffer.from('WEBP', 'latin1');

function startsWith(bytes: Buffer, prefix: Buffer, at = 0): boolean {
  return bytes.length >= at + prefix.length && bytes.subarray(at, at + prefix.length).equals(prefix);
}

/**
 * The format named by the file's own magic bytes, or `undefined`. A Content-Type header is never
 * consulted: servers label HTML error pages and SVGs as `image/png` all the time, and an attacker
 * controls it anyway.
 */
export function detectImageFormat(bytes: Buffer): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JPEG_SOI_AND_MARKER)) return 'jpeg';
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return 'gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  return undefined;
}

/** Like {@link detectImageFormat}, but refuses anything that is not a supported format. */
export function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  if (bytes.length === 0) {
    throw new CardImageError('unsupported_format', field, 'the image is empty; send a PNG, JPEG, GIF or WebP image');
  }
  const format = detectImageFormat(bytes);
  if (format === undefined) {
    throw new CardImageError(
      'unsupported_format',
      field,
      'the file is not a PNG, JPEG, GIF or WebP image (the format is read from the bytes, not from the Content-Type)',
    );
  }
  return format;
}
