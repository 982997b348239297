/**
 * Test images built in memory: PNG and JPEG drawn with canvas, GIFs assembled by hand, WebPs
 * embedded (encoded once with libwebp through @jsquash/webp and checked with the card's decodeImage),
 * and hostile headers (pixel bombs) written byte by byte.
 */
import { createCanvas } from 'canvas';
import { PNG_SIGNATURE, pngChunk } from '../card/images/fixtures.ts';

function drawing(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#3a7';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#c03';
  context.fillRect(0, 0, Math.ceil(width / 2), Math.ceil(height / 2));
  return canvas;
}

export const pngImage = (width: number, height: number): Buffer => drawing(width, height).toBuffer('image/png');
export const jpegImage = (width: number, height: number): Buffer => drawing(width, height).toBuffer('image/jpeg', { quality: 0.9 });

/** 5x3, lossless (VP8L) and lossy (VP8). */
export const WEBP_LOSSLESS_5X3 = Buffer.from('UklGRhwAAABXRUJQVlA4TBAAAAAvBIAAAAcQZe5M/wMR0f8A', 'base64');
export const WEBP_LOSSY_5X3 = Buffer.from('UklGRjoAAABXRUJQVlA4IC4AAACQAQCdASoFAAMAAMASJaACdLoAA5gA/vvhe+IhGHJh//wsz/8LM//CzP/gngAA', 'base64');

/**
 * GIF89a with a 2-color global table and `frames` images of `frameWidth`x`frameHeight` at the
 * top-left of a `width`x`height` screen. Pixel data is LZW with code size 8, written as literals
 * with a clear code before the table would grow past 9 bits.
 */
export function gifImage(width: number, height: number, options: { frames?: number; frameWidth?: number; frameHeight?: number } = {}): Buffer {
  const frames = options.frames ?? 1;
  const frameWidth = options.frameWidth ?? width;
  const frameHeight = options.frameHeight ?? height;
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80; // global color table of 2 entries
  const parts: Buffer[] = [Buffer.from('GIF89a', 'latin1'), screen, Buffer.from([0, 0, 0, 255, 255, 255])];
  const pixels = new Uint8Array(frameWidth * frameHeight).map((_, index) => index % 2);
  const imageData = lzwLiterals(pixels);
  for (let frame = 0; frame < frames; frame += 1) {
    parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00])); // graphic control: 100 ms
    parts.push(imageDescriptor(0, 0, frameWidth, frameHeight), imageData);
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

export function imageDescriptor(left: number, top: number, width: number, height: number): Buffer {
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(left, 1);
  descriptor.writeUInt16LE(top, 3);
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return descriptor;
}

/** Minimum code size byte, sub-blocks, terminator: 9-bit codes, clear every 254 literals. */
function lzwLiterals(pixels: Uint8Array): Buffer {
  const CLEAR = 256;
  const END = 257;
  const codes: number[] = [CLEAR];
  pixels.forEach((pixel, index) => {
    if (index > 0 && index % 254 === 0) codes.push(CLEAR);
    codes.push(pixel);
  });
  codes.push(END);
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const code of codes) {
    buffer |= code << bits;
    bits += 9;
    while (bits >= 8) {
      bytes.push(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) bytes.push(buffer & 0xff);
  const blocks: number[] = [8];
  for (let at = 0; at < bytes.length; at += 255) {
    const block = bytes.slice(at, at + 255);
    blocks.push(block.length, ...block);
  }
  blocks.push(0);
  return Buffer.from(blocks);
}

/**
 * The start of a PNG declaring `width`x`height`: signature, a valid IHDR, and the head of an IDAT
 * chunk announcing `idatLength` bytes that the test then streams (or never sends).
 */
export function pngBombHead(width: number, height: number, idatLength: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const idatHead = Buffer.alloc(8);
  idatHead.writeUInt32BE(idatLength, 0);
  idatHead.write('IDAT', 4, 'latin1');
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), idatHead]);
}

/**
 * A JPEG whose frame header (SOF0) declares `width`x`height`, followed by the start of a scan.
 * Like every encoder's output it opens with a JFIF APP0 segment; `frameFirst` leaves that out, a
 * crafted file whose first segment is the frame header.
 */
export function jpegBombHead(width: number, height: number, options: { frameFirst?: boolean } = {}): Buffer {
  const jfif = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01, 0x01, 0x11, 0x00]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), ...(options.frameFirst === true ? [] : [jfif]), sof, sos]);
}

/** A GIF with a 1x1 screen whose first image descriptor declares `width`x`height`, then the start of its data. */
export function gifBombHead(width: number, height: number): Buffer {
  const screen = Buffer.from([1, 0, 1, 0, 0x80, 0, 0]);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, Buffer.from([0, 0, 0, 255, 255, 255]), imageDescriptor(0, 0, width, height), Buffer.from([8, 255])]);
}

/** An extended WebP whose VP8X canvas declares `width`x`height`, RIFF size announcing `riffLength` bytes. */
export function webpBombHead(width: number, height: number, riffLength: number): Buffer {
  const head = Buffer.alloc(30);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(riffLength, 4);
  head.write('WEBPVP8X', 8, 'latin1');
  head.writeUInt32LE(10, 16);
  head.writeUIntLE(width - 1, 24, 3);
  head.writeUIntLE(height - 1, 27, 3);
  return head;
}

/**
 * An opaque PNG of pseudo-random pixels, stored uncompressed: about 4 bytes a pixel, so a test can
 * size a real image precisely (1224x1224 is about 6 MB). `seed` makes each one different.
 */
export function noisePng(width: number, height: number, seed: number): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(width, height);
  let state = seed >>> 0 || 1;
  for (let at = 0; at < image.data.length; at += 4) {
    // xorshift32: fast, deterministic, and incompressible enough for PNG's filters.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    image.data[at] = state & 0xff;
    image.data[at + 1] = (state >>> 8) & 0xff;
    image.data[at + 2] = (state >>> 16) & 0xff;
    image.data[at + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  return canvas.toBuffer('image/png', { compressionLevel: 0 });
}
