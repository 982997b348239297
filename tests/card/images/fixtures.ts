/**
 * Image fixtures built in memory: canvas draws and encodes PNG/JPEG; GIF and animated WebP/APNG
 * containers are assembled by hand here; still WebPs come from libwebp's encoder in WebAssembly.
 */
import { crc32, deflateSync } from 'node:zlib';
import { type Canvas, createCanvas } from 'canvas';
import sharp from 'sharp';
import type { DecodedImage } from '../../../packages/card/src/images/decode-image.ts';

export type Rgba = [red: number, green: number, blue: number, alpha: number];
export type Rgb = [red: number, green: number, blue: number];

export const RED: Rgba = [255, 0, 0, 255];
export const GREEN: Rgba = [0, 255, 0, 255];
export const BLUE: Rgba = [0, 0, 255, 255];
export const WHITE: Rgba = [255, 255, 255, 255];

const css = ([red, green, blue, alpha]: Rgba): string => `rgba(${red}, ${green}, ${blue}, ${alpha / 255})`;

export function solidCanvas(width: number, height: number, color: Rgba): Canvas {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = css(color);
  context.fillRect(0, 0, width, height);
  return canvas;
}

/** Four colored quadrants (top-left, top-right, bottom-left, bottom-right): catches flipped or transposed decodes. */
export function quadrantCanvas(width: number, height: number, [topLeft, topRight, bottomLeft, bottomRight]: [Rgba, Rgba, Rgba, Rgba]): Canvas {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const halfWidth = width / 2;
  const halfHeight = height / 2;
  for (const [color, x, y] of [[topLeft, 0, 0], [topRight, halfWidth, 0], [bottomLeft, 0, halfHeight], [bottomRight, halfWidth, halfHeight]] as const) {
    context.fillStyle = css(color);
    context.fillRect(x, y, halfWidth, halfHeight);
  }
  return canvas;
}

export const encodePng = (canvas: Canvas): Buffer => canvas.toBuffer('image/png');
export const encodeJpeg = (canvas: Canvas): Buffer => canvas.toBuffer('image/jpeg', { quality: 1 });

/** All pixels of a decoded image (RGBA, row by row), read back through a canvas as the card would draw it. */
export function allPixels(image: DecodedImage): Uint8ClampedArray {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image.source, 0, 0);
  return context.getImageData(0, 0, image.width, image.height).data;
}

/** The color at (x, y) of a decoded image. */
export function pixelAt(image: DecodedImage, x: number, y: number): Rgba {
  const offset = (y * image.width + x) * 4;
  return [...allPixels(image).subarray(offset, offset + 4)] as Rgba;
}

/** Each channel within `tolerance` (lossy codecs shift colors slightly). */
export function isCloseTo(actual: Rgba, expected: Rgba, tolerance = 8): boolean {
  return actual.every((channel, index) => Math.abs(channel - (expected[index] as number)) <= tolerance);
}

// ---------------------------------------------------------------------------------------- PNG

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface ParsedChunk {
  type: string;
  data: Buffer;
  /** The whole chunk: length, type, data and CRC. */
  raw: Buffer;
}

/** The chunks of a well-formed PNG (a test-side parser, independent of the one under test). */
export function parsePngChunks(png: Buffer): ParsedChunk[] {
  const chunks: ParsedChunk[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const end = offset + 12 + length;
    chunks.push({ type: png.toString('latin1', offset + 4, offset + 8), data: png.subarray(offset + 8, offset + 8 + length), raw: png.subarray(offset, end) });
    offset = end;
  }
  return chunks;
}

/** An IHDR for 8-bit RGBA of the given size, with a correct CRC. */
export function ihdrChunk(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = 6; // RGBA
  return pngChunk('IHDR', data);
}

/**
 * An APNG of two frames where the default image (IDAT) is frame one, as most encoders write it:
 * IHDR, acTL, fcTL 0, IDAT (first), fcTL 1, fdAT (second), IEND.
 */
export function buildApng(first: Canvas, second: Canvas): Buffer {
  return buildApngFrames([
    { canvas: first, delay: [1, 10] },
    { canvas: second, delay: [1, 10] },
  ]);
}

/** One APNG frame for {@link buildApngFrames}: its picture, delay (numerator, denominator of seconds) and where it goes. */
export interface ApngFixtureFrame {
  canvas: Canvas;
  delay: [numerator: number, denominator: number];
  x?: number;
  y?: number;
  dispose?: number;
  blend?: number;
}

/**
 * An APNG assembled from canvas-encoded PNGs with correct CRCs: the first frame is the default
 * image (IDAT) and sets the image size; later frames are fdAT at their own size and offset.
 * `declaredFrames` overrides acTL's count (hostile files lie about it).
 */
export function buildApngFrames(frames: readonly ApngFixtureFrame[], options: { declaredFrames?: number } = {}): Buffer {
  const parsed = frames.map((frame) => parsePngChunks(encodePng(frame.canvas)));
  const ihdr = parsed[0]?.find((chunk) => chunk.type === 'IHDR');
  if (ihdr === undefined) throw new Error('canvas PNG without IHDR');
  let sequence = 0;
  const frameControl = (frame: ApngFixtureFrame): Buffer => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence++, 0);
    data.writeUInt32BE(frame.canvas.width, 4);
    data.writeUInt32BE(frame.canvas.height, 8);
    data.writeUInt32BE(frame.x ?? 0, 12);
    data.writeUInt32BE(frame.y ?? 0, 16);
    data.writeUInt16BE(frame.delay[0], 20);
    data.writeUInt16BE(frame.delay[1], 22);
    data[24] = frame.dispose ?? 0;
    data[25] = frame.blend ?? 0;
    return pngChunk('fcTL', data);
  };
  const animationControl = Buffer.alloc(8);
  animationControl.writeUInt32BE(options.declaredFrames ?? frames.length, 0);
  const chunks: Buffer[] = [PNG_SIGNATURE, ihdr.raw, pngChunk('acTL', animationControl)];
  for (const [index, frame] of frames.entries()) {
    chunks.push(frameControl(frame));
    for (const chunk of parsed[index]!.filter((each) => each.type === 'IDAT')) {
      if (index === 0) {
        chunks.push(chunk.raw);
        continue;
      }
      const sequenceNumber = Buffer.alloc(4);
      sequenceNumber.writeUInt32BE(sequence++);
      chunks.push(pngChunk('fdAT', Buffer.concat([sequenceNumber, chunk.data])));
    }
  }
  return Buffer.concat([...chunks, pngChunk('IEND', Buffer.alloc(0))]);
}

// --------------------------------------------------------------------------------------- JPEG

/** Offset of the first `FF marker` pair in a canvas-made JPEG's header (its tables hold no 0xFF at quality 1). */
export function findJpegMarker(jpeg: Buffer, marker: number): number {
  const offset = jpeg.indexOf(Buffer.from([0xff, marker]));
  if (offset === -1) throw new Error(`marker 0x${marker.toString(16)} not found`);
  return offset;
}

export function insertBytes(bytes: Buffer, offset: number, inserted: Buffer): Buffer {
  return Buffer.concat([bytes.subarray(0, offset), inserted, bytes.subarray(offset)]);
}

/** A JPEG with its SOF0 size fields rewritten (the scan data still describes the original size). */
export function withJpegFrameSize(jpeg: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(jpeg);
  const sof = findJpegMarker(patched, 0xc0);
  patched.writeUInt16BE(height, sof + 5);
  patched.writeUInt16BE(width, sof + 7);
  return patched;
}

/** An APP1 "Exif" segment carrying `thumbnail` (a whole JPEG, as cameras embed one). */
export function exifSegmentWithThumbnail(thumbnail: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from('MM\0*\0\0\0\x08', 'latin1'), thumbnail]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

// ---------------------------------------------------------------------------------------- GIF

export interface GifFrame {
  /** One palette index per pixel, row by row (or in interlaced pass order when `interlaced`). */
  indices: Uint8Array;
  /** Ready-made image data (minimum code size byte and sub-blocks) to use instead of encoding `indices`. */
  imageData?: Buffer;
  width: number;
  height: number;
  left?: number;
  top?: number;
  interlaced?: boolean;
  transparentIndex?: number;
}

export interface GifSpec {
  width: number;
  height: number;
  palette: Rgb[];
  frames: GifFrame[];
  /** Adds a NETSCAPE2.0 looping extension, as animated GIFs have. */
  loop?: boolean;
  comment?: string;
  /** Each frame's delay in its graphic control extension, in centiseconds (10 unless given). */
  delayCs?: number;
}

/**
 * LZW without compression: minimum code size 7 makes every code 8 bits (one byte per pixel), and
 * a clear code every 126 pixels stops the code table from growing to 9 bits. Indices must be < 128.
 */
export function gifImageData(indices: Uint8Array): Buffer {
  const codes: number[] = [];
  for (let offset = 0; offset < indices.length; offset += 126) codes.push(128, ...indices.subarray(offset, offset + 126));
  codes.push(129);
  const bytes: number[] = [7];
  for (let offset = 0; offset < codes.length; offset += 255) {
    const block = codes.slice(offset, offset + 255);
    bytes.push(block.length, ...block);
  }
  bytes.push(0);
  return Buffer.from(bytes);
}

/**
 * Real LZW compression, as GIF encoders do it (a test-side encoder; libvips decodes its output in
 * first-frame.test.ts). A solid 256x256 frame shrinks to a few hundred bytes.
 */
export function compressedGifImageData(indices: Uint8Array, minimumCodeSize = 2): Buffer {
  const clearCode = 1 << minimumCodeSize;
  const endCode = clearCode + 1;
  const packed: number[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  let codeWidth = minimumCodeSize + 1;
  const emit = (code: number): void => {
    bitBuffer |= code << bitCount;
    bitCount += codeWidth;
    while (bitCount >= 8) {
      packed.push(bitBuffer & 0xff);
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  };
  let table = new Map<number, number>(); // prefix code * 256 + next index -> code
  let nextCode = endCode + 1;
  emit(clearCode);
  let prefix = indices[0] ?? 0;
  for (let index = 1; index < indices.length; index += 1) {
    const pixel = indices[index] as number;
    const known = table.get(prefix * 256 + pixel);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    emit(prefix);
    // The decoder defines each entry one code later than we do, so widen once the table reaches 2^width.
    if (nextCode === 1 << codeWidth && codeWidth < 12) codeWidth += 1;
    if (nextCode < 4096) {
      table.set(prefix * 256 + pixel, nextCode);
      nextCode += 1;
    } else {
      emit(clearCode);
      table = new Map();
      nextCode = endCode + 1;
      codeWidth = minimumCodeSize + 1;
    }
    prefix = pixel;
  }
  emit(prefix);
  if (nextCode === 1 << codeWidth && codeWidth < 12) codeWidth += 1;
  emit(endCode);
  if (bitCount > 0) packed.push(bitBuffer & 0xff);
  const bytes: number[] = [minimumCodeSize];
  for (let offset = 0; offset < packed.length; offset += 255) {
    const block = packed.slice(offset, offset + 255);
    bytes.push(block.length, ...block);
  }
  bytes.push(0);
  return Buffer.from(bytes);
}

export function buildGif(spec: GifSpec): Buffer {
  const tableBits = Math.max(1, Math.ceil(Math.log2(spec.palette.length)));
  const colorTable = Buffer.alloc(3 * 2 ** tableBits);
  spec.palette.forEach((color, index) => colorTable.set(color, index * 3));
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(spec.width, 0);
  screen.writeUInt16LE(spec.height, 2);
  screen[4] = 0x80 | 0x70 | (tableBits - 1);
  const parts: Buffer[] = [Buffer.from('GIF89a', 'latin1'), screen, colorTable];
  if (spec.loop === true) parts.push(Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]));
  if (spec.comment !== undefined) parts.push(Buffer.from([0x21, 0xfe, spec.comment.length, ...Buffer.from(spec.comment, 'latin1'), 0x00]));
  for (const frame of spec.frames) {
    const transparent = frame.transparentIndex !== undefined;
    const delay = spec.delayCs ?? 10;
    parts.push(Buffer.from([0x21, 0xf9, 0x04, transparent ? 0x01 : 0x00, delay & 0xff, delay >> 8, frame.transparentIndex ?? 0, 0x00]));
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(frame.left ?? 0, 1);
    descriptor.writeUInt16LE(frame.top ?? 0, 3);
    descriptor.writeUInt16LE(frame.width, 5);
    descriptor.writeUInt16LE(frame.height, 7);
    descriptor[9] = frame.interlaced === true ? 0x40 : 0;
    parts.push(descriptor, frame.imageData ?? gifImageData(frame.indices));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A frame of one palette index. */
export function solidGifFrame(width: number, height: number, index: number, extra: Partial<GifFrame> = {}): GifFrame {
  return { indices: new Uint8Array(width * height).fill(index), width, height, ...extra };
}

/** Counts image separators by walking the blocks (a test-side walker, independent of the code under test). */
export function countGifImages(gif: Buffer): number {
  let offset = 13 + ((gif[10] as number) & 0x80 ? 3 * 2 ** (((gif[10] as number) & 7) + 1) : 0);
  let images = 0;
  const skipSubBlocks = (): void => {
    while (gif[offset] !== 0) offset += 1 + (gif[offset] as number);
    offset += 1;
  };
  for (;;) {
    const introducer = gif[offset];
    if (introducer === 0x3b) return images;
    if (introducer === 0x21) {
      offset += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      images += 1;
      const packed = gif[offset + 9] as number;
      offset += 10 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0) + 1;
      skipSubBlocks();
    } else {
      throw new Error(`unexpected GIF block 0x${String(introducer?.toString(16))}`);
    }
  }
}

/**
 * A looping GIF of `frames` frames of `side` x `side`, red then blue repeated, each shown `delayMs`
 * (rounded to centiseconds), with real LZW data: about 30 bytes a frame at 16 px, so 200,000
 * frames fit in 6 MB.
 */
export function manyFrameGif(frames: number, options: { side?: number; delayMs?: number } = {}): Buffer {
  const side = options.side ?? 16;
  const frame = (index: number): GifFrame => ({ indices: new Uint8Array(0), width: side, height: side, imageData: compressedGifImageData(new Uint8Array(side * side).fill(index)) });
  const blue = frame(1);
  return buildGif({ width: side, height: side, palette: [[255, 0, 0], [0, 0, 255]], loop: true, delayCs: Math.round((options.delayMs ?? 20) / 10), frames: [frame(0), ...Array.from({ length: frames - 1 }, () => blue)] });
}

// --------------------------------------------------------------------------------------- WebP

/**
 * libwebp's encoder, through sharp. Encoding is the test's side: the decoder under test reads the result.
 */

export async function encodeWebp(canvas: Canvas, options: { lossless: boolean }): Promise<Buffer> {
  const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const raw = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } });
  return raw.webp(options.lossless ? { lossless: true } : { quality: 90 }).toBuffer();
}

interface RiffChunkBytes {
  fourcc: string;
  /** The whole chunk, header and padding included. */
  raw: Buffer;
  data: Buffer;
}

/** The top-level chunks of a WebP (a test-side parser). */
export function parseWebpChunks(webp: Buffer): RiffChunkBytes[] {
  const chunks: RiffChunkBytes[] = [];
  for (let offset = 12; offset + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    chunks.push({ fourcc: webp.toString('latin1', offset, offset + 4), raw: webp.subarray(offset, end), data: webp.subarray(offset + 8, offset + 8 + size) });
    offset = end;
  }
  return chunks;
}

export function riffChunk(fourcc: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(fourcc, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
}

export function riffFile(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

export function vp8xChunk(flags: number, width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = flags;
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riffChunk('VP8X', data);
}

export interface AnimationFrame {
  /** A still WebP whose image chunks (ALPH, VP8, VP8L) become the frame. */
  still: Buffer;
  width: number;
  height: number;
  /** Even offsets only: ANMF stores them halved. */
  x?: number;
  y?: number;
}

/** An animated WebP (VP8X with the animation and alpha flags, ANIM, one ANMF per frame). */
export function buildAnimatedWebp(canvasWidth: number, canvasHeight: number, frames: AnimationFrame[]): Buffer {
  const animation = Buffer.alloc(6); // background color (4, ignored by decoders) | loop count (2)
  const frameChunks = frames.map((frame) => {
    const header = Buffer.alloc(16);
    header.writeUIntLE((frame.x ?? 0) / 2, 0, 3);
    header.writeUIntLE((frame.y ?? 0) / 2, 3, 3);
    header.writeUIntLE(frame.width - 1, 6, 3);
    header.writeUIntLE(frame.height - 1, 9, 3);
    header.writeUIntLE(100, 12, 3); // duration in ms
    const imageChunks = parseWebpChunks(frame.still)
      .filter((chunk) => ['ALPH', 'VP8 ', 'VP8L'].includes(chunk.fourcc))
      .map((chunk) => chunk.raw);
    return riffChunk('ANMF', Buffer.concat([header, ...imageChunks]));
  });
  return riffFile([vp8xChunk(0x02 | 0x10, canvasWidth, canvasHeight), riffChunk('ANIM', animation), ...frameChunks]);
}

/**
 * An animated WebP of `frames` frames of `side` x `side`, each shown `delayMs`: libwebp (through
 * sharp) encodes a two-frame animation, red then blue, and its blue ANMF chunk is repeated, so the
 * file is real libwebp output however many frames it has (about 54 bytes a frame at 64 px: 20,000
 * frames are 1 MB, 100,000 are 5 MB), built in milliseconds.
 */
export async function manyFrameWebp(frames: number, options: { side?: number; delayMs?: number } = {}): Promise<Buffer> {
  const side = options.side ?? 64;
  const delayMs = options.delayMs ?? 20;
  const pixels = Buffer.concat([solidRgba(side, side, RED), solidRgba(side, side, BLUE)]);
  const twoFrames = await sharp(pixels, { raw: { width: side, height: side * 2, channels: 4, pageHeight: side } })
    .webp({ loop: 0, delay: [delayMs, delayMs], lossless: true })
    .toBuffer();
  const chunks = parseWebpChunks(twoFrames);
  const [red, blue] = chunks.filter((chunk) => chunk.fourcc === 'ANMF').map((chunk) => chunk.raw);
  if (red === undefined || blue === undefined) throw new Error('sharp did not write two ANMF chunks');
  const head = chunks.filter((chunk) => chunk.fourcc === 'VP8X' || chunk.fourcc === 'ANIM').map((chunk) => chunk.raw);
  return riffFile([...head, red, ...Array.from({ length: frames - 1 }, () => blue)]);
}

function solidRgba(width: number, height: number, color: Rgba): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let offset = 0; offset < pixels.length; offset += 4) pixels.set(color, offset);
  return pixels;
}

/** Counts the ANMF chunks of a WebP (a test-side count, independent of the code under test). */
export const countWebpFrames = (webp: Buffer): number => parseWebpChunks(webp).filter((chunk) => chunk.fourcc === 'ANMF').length;

// ------------------------------------------------------------------------------------- memory

/**
 * A real decompression bomb: a 1-bit grayscale PNG of `side` x `side` zeros. At 20000 px it is
 * about 50 KB, and node-canvas given it unchecked decodes it to a 1.6 GB surface.
 */
export function grayscaleBombPng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side); // filter byte + packed bits, all zero
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * How far the process's peak resident memory rose while `action` ran, in MB. The peak (maxRSS)
 * catches a buffer that a synchronous decoder allocates and frees before returning, which a
 * before/after `rss` reading would miss.
 */
export async function peakMemoryGrowthMb(action: () => Promise<unknown>): Promise<number> {
  const before = process.resourceUsage().maxRSS;
  try {
    await action();
  } catch {
    // The caller asserts on the outcome separately; only memory is measured here.
  }
  return (process.resourceUsage().maxRSS - before) / 1024;
}

// ------------------------------------------------------------------------------- big animations

/**
 * An APNG of `colors.length` full-size solid frames of `side` x `side`: a 4000 px side makes
 * three 16-megapixel frames in about 200 KB (zlib shrinks a solid frame about 1000 times), the
 * most a small download can ask a decoder to hold.
 */
export function bigApng(side: number, colors: readonly Rgba[], compose: { dispose?: number; blend?: number } = {}): Buffer {
  return buildApngFrames(colors.map((color) => ({ canvas: solidCanvas(side, side, color), delay: [1, 10] as [number, number], ...compose })));
}

/** The same as an animated GIF (libvips' encoder; solid frames compress to a few KB each). */
export async function bigGif(side: number, colors: readonly Rgba[]): Promise<Buffer> {
  const frames = colors.map((color) => Buffer.alloc(side * side * 4).fill(Buffer.from(color)));
  return sharp(Buffer.concat(frames), { raw: { width: side, height: side * colors.length, channels: 4, pageHeight: side } })
    .gif({ loop: 0, delay: colors.map(() => 100) })
    .toBuffer();
}
