import { imageSizeProblem, type ImageFormat, walkGifBlocks } from '@utility-api/render-jobs';
import { CardImageError, corruptImage } from './card-image-error.ts';

/**
 * Animated GIF and WebP cut to the frames a card uses before libvips sees them (beside
 * decoder-guards.ts: what libvips does not bound, checked on the raw bytes). libvips reads every
 * frame's header whatever `pages` asks for, and for WebP the cost is quadratic in the frame count
 * (libwebp's demuxer walks its frame list from the start for each frame): a 20,000-frame, 1 MB
 * WebP took 0.4 s to read the header and 0.8 s more to decode its first frame, 100,000 frames
 * (5 MB) 10 s and 20 s. So the container is rewritten to hold its first `count` frames only: a
 * still image keeps one, an animated source at most MAX_SOURCE_FRAMES (image-rules.ts). The walk
 * reads the containers' own framing (RIFF chunk headers, GIF block and sub-block lengths), inflates
 * nothing and copies only the kept frames, so its cost is linear in the bytes it walks.
 *
 * Every kept frame is checked against its canvas: the canvas within the per-image limits
 * (`too_large`, as the header check would say), each frame inside it (else `corrupt`). A file that
 * ends or goes wrong before its first frame is whole is `corrupt`; one that does after it keeps the
 * frames that are whole, as decoders play a truncated animation (a GIF with fewer frames than
 * `count` goes to libvips as it is, which plays what it can of a damaged last frame). Frames after
 * the kept ones are never checked: they are never read.
 */
export function keepFirstFrames(bytes: Buffer, format: ImageFormat, field: string, count: number): Buffer {
  if (format === 'gif') return keepFirstGifFrames(bytes, field, count);
  if (format === 'webp') return keepFirstWebpFrames(bytes, field, count);
  return bytes;
}

function assertCanvasWithinLimits(size: { width: number; height: number }, field: string): void {
  const problem = imageSizeProblem(size);
  if (problem !== undefined) throw new CardImageError('too_large', field, problem);
}

const GIF_TRAILER = Buffer.from([0x3b]);

/**
 * A GIF's header, screen, global colour table and blocks up to the end of its `count`-th image,
 * then a trailer. The first image may reach past the logical screen: decoders (libvips' libnsgif,
 * browsers) grow the canvas to hold it, so the grown canvas is what must be within the limits
 * (the fetcher checks the same extent: packages/safe-fetch). Later images are clipped to that
 * canvas by decoders; one that does not fit is damaged (`corrupt`).
 */
function keepFirstGifFrames(bytes: Buffer, field: string, count: number): Buffer {
  const canvas = { width: 0, height: 0 };
  let images = 0;
  let wholeImagesEnd = 0;
  for (const block of walkGifBlocks(bytes)) {
    if (block.kind === 'screen') {
      canvas.width = block.width;
      canvas.height = block.height;
    } else if (block.kind === 'image') {
      if (images === 0) {
        canvas.width = Math.max(canvas.width, block.left + block.width);
        canvas.height = Math.max(canvas.height, block.top + block.height);
        assertCanvasWithinLimits(canvas, field);
      } else if (block.left + block.width > canvas.width || block.top + block.height > canvas.height) {
        throw corruptImage(field, `frame ${images + 1} of the GIF lies outside its ${canvas.width}x${canvas.height} canvas`);
      }
      images += 1;
    } else if (block.kind === 'image-data') {
      wholeImagesEnd = block.end;
      if (images === count) break;
    } else if (block.kind !== 'extension') {
      // The file ends (or stops being a GIF) before its `count`-th image is whole, so it holds no
      // frame to cut: libvips gets it as it is (minus bytes after the trailer) and judges a
      // damaged last frame as it always has.
      if (images === 0) throw corruptImage(field, block.kind === 'trailer' ? 'the GIF file has no image' : 'the GIF file is truncated or damaged');
      return block.kind === 'trailer' ? bytes.subarray(0, block.end) : bytes;
    }
  }
  // Already followed by its trailer (a GIF of `count` frames or fewer): no copy needed.
  if (bytes[wholeImagesEnd] === GIF_TRAILER[0]) return bytes.subarray(0, wholeImagesEnd + 1);
  return Buffer.concat([bytes.subarray(0, wholeImagesEnd), GIF_TRAILER]);
}

/**
 * WebP layout: `RIFF <size, LE> WEBP`, then chunks of `fourcc (4) | size (4, LE) | data`, padded to
 * an even length. https://developers.google.com/speed/webp/docs/riff_container
 */
const RIFF_HEADER_LENGTH = 12;
const CHUNK_HEADER_LENGTH = 8;
/** Chunk names as big-endian integers, compared without making a string per chunk. */
const FOURCC = { VP8X: 0x56503858, ANIM: 0x414e494d, ANMF: 0x414e4d46, EXIF: 0x45584946 } as const;
const VP8X_ANIMATION = 0x02;
/** VP8X flags of the chunks a rewrite drops: the ICC profile (cards ignore it) and XMP. */
const VP8X_DROPPED_METADATA = 0x20 | 0x04;
const VP8X_EXIF = 0x08;
/** ANMF data starts with x/2, y/2, width - 1, height - 1 (24 bits each, LE), duration and flags. */
const ANMF_HEADER_LENGTH = 16;

/**
 * An animated WebP (VP8X with the animation flag) rewritten to its VP8X, ANIM, first `count` ANMF
 * frames and EXIF chunk; a still WebP (simple VP8/VP8L, or VP8X without animation) comes back
 * as it is. EXIF is kept because libvips turns the image by its orientation (an animated source
 * with one is drawn still, turned). ICCP, XMP and unknown chunks are dropped, with their VP8X flags.
 * The chunk list is walked to its end to find the EXIF chunk, which the format places after the
 * frames: 8 bytes read per chunk, nothing decoded.
 */
function keepFirstWebpFrames(bytes: Buffer, field: string, count: number): Buffer {
  const first = RIFF_HEADER_LENGTH;
  if (bytes.length < first + CHUNK_HEADER_LENGTH + 10 || bytes.readUInt32BE(first) !== FOURCC.VP8X) return bytes;
  if ((bytes[first + CHUNK_HEADER_LENGTH]! & VP8X_ANIMATION) === 0) return bytes;
  if (bytes.readUInt32LE(first + 4) < 10) throw corruptImage(field, 'the WebP header is damaged');
  const canvas = { width: 1 + bytes.readUIntLE(first + 12, 3), height: 1 + bytes.readUIntLE(first + 15, 3) };
  assertCanvasWithinLimits(canvas, field);

  // A RIFF size past the bytes is a truncated file: what is there is walked, as for any truncation.
  // Bytes after the RIFF size are not part of the file (libwebp ignores them too): they go.
  const riffEnd = CHUNK_HEADER_LENGTH + bytes.readUInt32LE(4);
  const end = Math.min(bytes.length, riffEnd);
  const kept: Buffer[] = [];
  let frames = 0;
  let cut = riffEnd !== bytes.length;
  let exif = false;
  let offset = first;
  while (offset < end) {
    // Only kept chunks get a Buffer view: the frames walked past cost two integer reads each.
    const size = offset + CHUNK_HEADER_LENGTH <= end ? bytes.readUInt32LE(offset + 4) : -1;
    const chunkEnd = offset + CHUNK_HEADER_LENGTH + size + (size % 2);
    if (size === -1 || chunkEnd > end) {
      if (frames === 0) throw corruptImage(field, 'the WebP file is truncated or damaged');
      cut = true;
      break;
    }
    const fourcc = bytes.readUInt32BE(offset);
    if (fourcc === FOURCC.ANMF && frames < count) {
      if (size < ANMF_HEADER_LENGTH) throw corruptImage(field, `frame ${frames + 1} of the WebP is damaged`);
      const at = offset + CHUNK_HEADER_LENGTH;
      const x = 2 * bytes.readUIntLE(at, 3);
      const y = 2 * bytes.readUIntLE(at + 3, 3);
      const width = 1 + bytes.readUIntLE(at + 6, 3);
      const height = 1 + bytes.readUIntLE(at + 9, 3);
      if (x + width > canvas.width || y + height > canvas.height) {
        throw corruptImage(field, `frame ${frames + 1} of the WebP lies outside its ${canvas.width}x${canvas.height} canvas`);
      }
      frames += 1;
      kept.push(bytes.subarray(offset, chunkEnd));
    } else if ((fourcc === FOURCC.VP8X && offset === first) || fourcc === FOURCC.ANIM || (fourcc === FOURCC.EXIF && !exif)) {
      exif ||= fourcc === FOURCC.EXIF;
      kept.push(bytes.subarray(offset, chunkEnd));
    } else {
      cut = true;
    }
    offset = chunkEnd;
  }
  if (frames === 0) throw corruptImage(field, 'the animated WebP has no frames');
  if (!cut) return bytes;

  const vp8x = Buffer.from(kept[0]!);
  vp8x[CHUNK_HEADER_LENGTH] = vp8x[CHUNK_HEADER_LENGTH]! & ~VP8X_DROPPED_METADATA & (exif ? 0xff : ~VP8X_EXIF);
  kept[0] = vp8x;
  const header = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  const length = kept.reduce((total, chunk) => total + chunk.length, RIFF_HEADER_LENGTH);
  header.writeUInt32LE(length - CHUNK_HEADER_LENGTH, 4);
  return Buffer.concat([header, ...kept], length);
}
