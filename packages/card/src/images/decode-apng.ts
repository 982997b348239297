import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { corruptImage } from './card-image-error.ts';
import { walkPngChunks } from './decoder-guards.ts';
import { MAX_SOURCE_FRAMES } from '@utility-api/render-jobs';

/**
 * APNG, read without a second decoder of compressed pixels: sharp 0.35's libvips (libspng) reads
 * only an APNG's default image, so each frame's image data (fdAT, or the IDAT when the default
 * image is frame one) is rewrapped as a standalone PNG of the frame's size and decoded by libvips
 * with the same guards as any PNG (pixel limit = the frame's declared size, failOn warning); only
 * the frames are composited here, in plain JS over RGBA buffers, with the APNG dispose and blend
 * operations (https://www.w3.org/TR/png-3/#apng-frame-control-chunk). fast-png 8's decodeApng was
 * considered and not used: it inflates with no output bound, indexes frames by acTL's count before
 * checking them, and composites partial frames wrongly (a frame with dispose NONE drops the
 * canvas under it; OVER adds instead of blending).
 */

/** One frame as its fcTL declares it, with its image data (zlib stream parts, sequence numbers stripped). */
interface ApngFrame {
  width: number;
  height: number;
  x: number;
  y: number;
  /** The delay as fcTL writes it, in ms (a denominator of 0 means 100, as the spec says). */
  delayMs: number;
  dispose: number;
  blend: number;
  data: Buffer[];
}

/** What the chunk walk found in an APNG, checked against its IHDR. */
export interface ApngLayout {
  width: number;
  height: number;
  frames: ApngFrame[];
  /** IHDR's data, reused (with each frame's size) for the frame PNGs. */
  ihdr: Buffer;
  /** PLTE and tRNS as they were, copied into each frame PNG. */
  palette: Buffer[];
}

const DISPOSE_BACKGROUND = 1;
const DISPOSE_PREVIOUS = 2;
const BLEND_OVER = 1;

/**
 * The APNG frames of a PNG, found by walking its chunks (nothing is inflated): undefined when the
 * PNG is not animated as the spec defines it (no acTL before the first IDAT, fewer than two frames
 * with data) or uses what is drawn still (interlaced, 16-bit). acTL's frame count is never trusted:
 * only fcTL chunks that carry image data are frames. An fcTL whose region leaves the image, or has
 * no size, is `corrupt`. The walk stops at the (MAX_SOURCE_FRAMES + 1)-th fcTL: no card plays a
 * later frame, so none is read.
 */
export function readApngLayout(bytes: Buffer, field: string): ApngLayout | undefined {
  let ihdr: Buffer | undefined;
  let animated = false;
  let seenIdat = false;
  let pending: ApngFrame | undefined;
  const frames: ApngFrame[] = [];
  const palette: Buffer[] = [];
  for (const chunk of walkPngChunks(bytes, field)) {
    const { type, data } = chunk;
    if (type === 'IHDR') {
      if (ihdr !== undefined || data.length !== 13) throw corruptImage(field, 'the PNG header is damaged');
      ihdr = data;
    }
    else if (type === 'PLTE' || type === 'tRNS') palette.push(chunk.raw);
    else if (type === 'acTL' && !seenIdat) animated = true;
    else if (type === 'fcTL' && animated) {
      if (frames.length === MAX_SOURCE_FRAMES) break;
      if (data.length !== 26 || ihdr === undefined) throw corruptImage(field, 'an APNG frame header is damaged');
      const frame: ApngFrame = {
        width: data.readUInt32BE(4),
        height: data.readUInt32BE(8),
        x: data.readUInt32BE(12),
        y: data.readUInt32BE(16),
        delayMs: (data.readUInt16BE(20) * 1000) / (data.readUInt16BE(22) || 100),
        dispose: data[24]!,
        blend: data[25]!,
        data: [],
      };
      const width = ihdr.readUInt32BE(0);
      const height = ihdr.readUInt32BE(4);
      if (frame.width < 1 || frame.height < 1 || frame.x + frame.width > width || frame.y + frame.height > height || frame.dispose > 2 || frame.blend > 1) {
        throw corruptImage(field, 'an APNG frame lies outside the image');
      }
      pending = frame;
      frames.push(frame);
    } else if (type === 'IDAT') {
      seenIdat = true;
      // The default image is frame one only when an fcTL came before it.
      if (pending && frames.length === 1) pending.data.push(data);
    } else if (type === 'fdAT' && pending && data.length > 4) pending.data.push(data.subarray(4));
  }
  if (!animated || ihdr === undefined) return undefined;
  const depth = ihdr[8]!;
  const interlace = ihdr[12]!;
  if (depth > 8 || interlace !== 0) return undefined;
  const withData = frames.filter((frame) => frame.data.length > 0);
  if (withData.length < 2) return undefined;
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), frames: withData, ihdr, palette };
}

/** A PNG chunk with its CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))));
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Where a frame lands on a canvas drawn at `scale`: its region, rounded outwards, inside the canvas. */
function scaledRegion(frame: ApngFrame, scale: number, canvas: { width: number; height: number }): Pick<ApngFrame, 'x' | 'y' | 'width' | 'height'> {
  const x = Math.min(canvas.width - 1, Math.floor(frame.x * scale));
  const y = Math.min(canvas.height - 1, Math.floor(frame.y * scale));
  const right = Math.max(x + 1, Math.min(canvas.width, Math.ceil((frame.x + frame.width) * scale)));
  const bottom = Math.max(y + 1, Math.min(canvas.height, Math.ceil((frame.y + frame.height) * scale)));
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * One frame's pixels as straight RGBA at `size` (the frame's own, or its region on a scaled
 * canvas), decoded by libvips; the resize runs inside libvips while it reads the rows, so a big
 * frame is never held whole.
 */
async function decodeFrame(layout: ApngLayout, frame: ApngFrame, field: string, size: { width: number; height: number }): Promise<Buffer> {
  const ihdr = Buffer.from(layout.ihdr);
  ihdr.writeUInt32BE(frame.width, 0);
  ihdr.writeUInt32BE(frame.height, 4);
  const png = Buffer.concat([SIGNATURE, pngChunk('IHDR', ihdr), ...layout.palette, pngChunk('IDAT', Buffer.concat(frame.data)), pngChunk('IEND', Buffer.alloc(0))]);
  try {
    const image = sharp(png, { limitInputPixels: frame.width * frame.height, failOn: 'warning', ignoreIcc: true });
    const resized = size.width === frame.width && size.height === frame.height ? image : image.resize(size.width, size.height, { fit: 'fill' });
    const { data, info } = await resized
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.width !== size.width || info.height !== size.height || info.channels !== 4) throw new Error('unexpected frame shape');
    return data;
  } catch {
    throw corruptImage(field, 'a frame of the animation could not be decoded; it may be damaged');
  }
}

/**
 * The first `count` frames composited onto the image's canvas as the APNG spec plays them, each
 * handed to `each` (straight RGBA, the canvas's width x height; the live canvas, to be read before
 * `each` resolves) before the next is drawn, so only the canvas, one saved region and one decoded
 * frame are held at a time: at most about three times the canvas's pixels. With `scale` below 1
 * the canvas is the image scaled by it (sides rounded up) and each frame is decoded straight to
 * its region there: a card that draws a 4000 px APNG at a few hundred pixels then holds three
 * small buffers, not three of 64 MiB (a partial frame's edges may then blend over a pixel's width).
 */
export async function compositeApngFrames(layout: ApngLayout, count: number, field: string, each: (rgba: Buffer, size: { width: number; height: number }) => Promise<void>, scale = 1): Promise<void> {
  const size = { width: Math.max(1, Math.ceil(layout.width * scale)), height: Math.max(1, Math.ceil(layout.height * scale)) };
  const { width } = size;
  const canvas = Buffer.alloc(width * size.height * 4);
  for (const [index, declared] of layout.frames.slice(0, count).entries()) {
    const frame = { ...declared, ...(scale < 1 ? scaledRegion(declared, scale, size) : {}) };
    const pixels = await decodeFrame(layout, declared, field, frame);
    // The first frame's PREVIOUS disposal is BACKGROUND (spec).
    const dispose = index === 0 && frame.dispose === DISPOSE_PREVIOUS ? DISPOSE_BACKGROUND : frame.dispose;
    const saved = dispose === DISPOSE_PREVIOUS ? copyRegion(canvas, width, frame) : undefined;
    for (let row = 0; row < frame.height; row += 1) {
      const target = ((frame.y + row) * width + frame.x) * 4;
      const source = row * frame.width * 4;
      if (frame.blend !== BLEND_OVER) {
        pixels.copy(canvas, target, source, source + frame.width * 4);
        continue;
      }
      for (let col = 0; col < frame.width * 4; col += 4) blendOver(canvas, target + col, pixels, source + col);
    }
    // Not copied: `each` is done with the canvas before the next frame changes it.
    await each(canvas, size);
    if (dispose === DISPOSE_BACKGROUND) {
      for (let row = 0; row < frame.height; row += 1) canvas.fill(0, ((frame.y + row) * width + frame.x) * 4, ((frame.y + row) * width + frame.x + frame.width) * 4);
    } else if (saved) {
      for (let row = 0; row < frame.height; row += 1) saved.copy(canvas, ((frame.y + row) * width + frame.x) * 4, row * frame.width * 4, (row + 1) * frame.width * 4);
    }
  }
}

function copyRegion(canvas: Buffer, width: number, frame: Pick<ApngFrame, 'x' | 'y' | 'width' | 'height'>): Buffer {
  const region = Buffer.alloc(frame.width * frame.height * 4);
  for (let row = 0; row < frame.height; row += 1) {
    const start = ((frame.y + row) * width + frame.x) * 4;
    canvas.copy(region, row * frame.width * 4, start, start + frame.width * 4);
  }
  return region;
}

/** Straight-alpha "over" of one source pixel onto one canvas pixel. */
function blendOver(canvas: Buffer, at: number, source: Buffer, from: number): void {
  const alpha = source[from + 3]! / 255;
  if (alpha === 0) return;
  const under = (canvas[at + 3]! / 255) * (1 - alpha);
  const out = alpha + under;
  for (let channel = 0; channel < 3; channel += 1) {
    canvas[at + channel] = Math.round((source[from + channel]! * alpha + canvas[at + channel]! * under) / out);
  }
  canvas[at + 3] = Math.round(out * 255);
}
