import { corruptImage } from './card-image-error.ts';
import {
  type RiffChunk,
  VP8X_ALPHA_FLAG,
  readBitstreamSize,
  readUInt24LE,
  readWebpHeader,
  riffChunks,
  webpChunks,
} from './webp-structure.ts';

/** A still WebP the decoder can read, and where it sits on the image's canvas. */
export interface WebpStill {
  bytes: Buffer;
  canvasWidth: number;
  canvasHeight: number;
  /** Top-left corner of the still on the canvas (non-zero only for an animation's first frame). */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ANMF: x/2 (3) | y/2 (3) | width-1 (3) | height-1 (3) | duration (3) | flags (1) | frame chunks. */
const ANMF_HEADER_LENGTH = 16;

/**
 * The still to decode for a WebP. A still file is returned as is. The decoder we use
 * (libwebp's WebPDecodeRGBA) refuses animations, so for one the first ANMF frame's bitstream
 * (VP8L, or VP8 with its optional ALPH alpha plane) is rewrapped as a standalone file; the caller
 * places it on a transparent canvas at the frame's offset, which is exactly how frame one renders
 * (nothing is under it to blend with or dispose).
 */
export function firstWebpStill(bytes: Buffer, field: string): WebpStill {
  const header = readWebpHeader(bytes, field);
  const canvas = { canvasWidth: header.width, canvasHeight: header.height };
  if (!header.animated) return { bytes, ...canvas, x: 0, y: 0, width: header.width, height: header.height };

  let frame: RiffChunk | undefined;
  for (const chunk of webpChunks(bytes, field)) {
    if (chunk.fourcc === 'ANMF') {
      frame = chunk;
      break;
    }
  }
  if (frame === undefined || frame.dataLength < ANMF_HEADER_LENGTH) throw corruptImage(field, 'the WebP animation holds no frame');

  const at = frame.dataStart;
  const x = readUInt24LE(bytes, at) * 2;
  const y = readUInt24LE(bytes, at + 3) * 2;
  const width = readUInt24LE(bytes, at + 6) + 1;
  const height = readUInt24LE(bytes, at + 9) + 1;
  if (x + width > header.width || y + height > header.height) {
    throw corruptImage(field, 'the first WebP frame lies outside the image');
  }

  let alpha: RiffChunk | undefined;
  let bitstream: RiffChunk | undefined;
  for (const chunk of riffChunks(bytes, at + ANMF_HEADER_LENGTH, frame.dataStart + frame.dataLength, field)) {
    if (chunk.fourcc === 'ALPH') alpha ??= chunk;
    const size = readBitstreamSize(bytes, chunk, field);
    if (size === undefined) continue;
    // libwebp's demuxer requires this too: a bitstream of another size would be drawn misplaced.
    if (size.width !== width || size.height !== height) throw corruptImage(field, 'the first WebP frame is malformed');
    bitstream = chunk;
    break;
  }
  if (bitstream === undefined) throw corruptImage(field, 'the first WebP frame holds no image data');
  return { bytes: buildStillWebp(bytes, bitstream, alpha, width, height), ...canvas, x, y, width, height };
}

/**
 * A simple-format file (`RIFF WEBP` + the bitstream chunk) or, when a lossy frame carries a
 * separate alpha plane, an extended one (`VP8X` with the alpha flag, `ALPH`, `VP8 `).
 */
function buildStillWebp(bytes: Buffer, bitstream: RiffChunk, alpha: RiffChunk | undefined, width: number, height: number): Buffer {
  const chunks: Buffer[] = [];
  if (alpha !== undefined && bitstream.fourcc === 'VP8 ') {
    const vp8x = Buffer.alloc(10);
    vp8x[0] = VP8X_ALPHA_FLAG;
    vp8x.writeUIntLE(width - 1, 4, 3);
    vp8x.writeUIntLE(height - 1, 7, 3);
    chunks.push(riffChunk('VP8X', vp8x), copyChunk(bytes, alpha));
  }
  chunks.push(copyChunk(bytes, bitstream));
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

function copyChunk(bytes: Buffer, chunk: RiffChunk): Buffer {
  return riffChunk(chunk.fourcc, bytes.subarray(chunk.dataStart, chunk.dataStart + chunk.dataLength));
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(fourcc, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
}
