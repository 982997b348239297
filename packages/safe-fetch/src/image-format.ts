import { ImageFetchError } from './image-fetch-error.ts';

/** The formats a card accepts; everything else (SVG, HTML, BMP, TIFF, AVIF...) is refused. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Enough bytes to tell every accepted format apart (WebP's `RIFF <size> WEBP` is the longest). */
export const SNIFF_LENGTH = 12;

/** Each format's signature as [offset, bytes] pairs, all of which must match. */
const SIGNATURES: readonly { format: ImageFormat; parts: readonly [number, Buffer][] }[] = [
  { format: 'png', parts: [[0, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]] },
  { format: 'jpeg', parts: [[0, Buffer.from([0xff, 0xd8, 0xff])]] },
  { format: 'gif', parts: [[0, Buffer.from('GIF87a', 'latin1')]] },
  { format: 'gif', parts: [[0, Buffer.from('GIF89a', 'latin1')]] },
  { format: 'webp', parts: [[0, Buffer.from('RIFF', 'latin1')], [8, Buffer.from('WEBP', 'latin1')]] },
];

/**
 * The format named by the body's own first bytes. A Content-Type is never consulted: servers label
 * HTML error pages and SVGs `image/png` all the time, and an attacker chooses it anyway. Called
 * once at least {@link SNIFF_LENGTH} bytes are in (or the body ended shorter).
 */
export function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  if (bytes.length === 0) throw new ImageFetchError('unsupported_format', field, 'the image is empty; send a PNG, JPEG, GIF or WebP image');
  const match = SIGNATURES.find(({ parts }) => parts.every(([offset, signature]) => bytes.subarray(offset, offset + signature.length).equals(signature)));
  if (match === undefined) {
    throw new ImageFetchError(
      'unsupported_format',
      field,
      'the file is not a PNG, JPEG, GIF or WebP image (the format is read from the bytes, not from the Content-Type)',
    );
  }
  return match.format;
}
