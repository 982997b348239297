/**
 * Hostile images built from code, real bytes every time: decompression and metadata bombs that
 * stay under the fetcher's 8 MB cap but ask a careless decoder for far more memory or time.
 *
 * - PNG: a valid 1x1 RGBA image carrying many `zTXt`, `iTXt` or `iCCP` chunks, each inflating to
 *   ~7.9 MB (just under libpng's 8 MB per-chunk allowance), or many plain `tEXt` chunks, placed
 *   before or after the IDAT chunk.
 * - JPEG: a small baseline JPEG with ~120 APP1 (EXIF) and APP2 (ICC profile) segments of 65533 bytes.
 * - WebP: an extended (VP8X) WebP with huge EXIF, XMP and ICCP chunks, flagged in VP8X.
 * - GIF: a valid 1x1 GIF after megabytes of comment and application extensions.
 * - A 4000x4000 progressive JPEG of 100 scans (jpegtran), each scan a pass over the whole image.
 * - 16-megapixel solid PNGs, tiny files that decode to 64 MB each.
 * - Animations of 20,000 and 100,000 WebP frames (1 and 5 MB: libwebp's cost grows with the square
 *   of the frame count) and of 200,000 GIF frames (7 MB), built by the image fixtures.
 *
 * Every size lives in {@link BOMB_SIZES}: the HTTP suites run at that scale.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { gifBlocksStart, gifImage, ihdrChunk, insertBytes, parseWebpChunks, PNG_SIGNATURE, pngChunk, riffChunk, riffFile, vp8xChunk } from '../../fixtures/images.ts';
import { FETCH_DEFAULTS } from '@utility-api/safe-fetch/config';

const run = promisify(execFile);

/** The sizes of the bombs; the full set is what production must survive. */
export const FULL_BOMB_SIZES = {
  /** What one compressed PNG chunk (zTXt, iTXt, iCCP) inflates to: just under libpng's 8 MB chunk limit. */
  inflatedChunkBytes: 7_900_000,
  /** Compressed chunks per PNG: 1000 x ~7.7 KB ≈ 7.7 MB of file, ~7.9 GB inflated. */
  compressedChunks: 1000,
  /** Plain tEXt chunks per PNG and the text in each: ~7.9 MB of file, nothing to inflate. */
  textChunks: 120,
  textChunkBytes: 65_500,
  /** APP segments after the JPEG's SOI, alternately APP1 (EXIF) and APP2 (ICC), 65533 bytes each. */
  jpegAppSegments: 120,
  /** Each of the WebP's EXIF, XMP and ICCP chunks. */
  webpMetadataBytes: 2_500_000,
  /** Comment plus application extension bytes in the GIF, in this many extensions. */
  gifExtensionBytes: 7_000_000,
  gifExtensions: 28,
  /** The progressive JPEG: side, scans, and its base's noise and quality (chosen for a 5-7 MB file). */
  progressiveSide: 4000,
  progressiveScans: 100,
  progressiveNoiseSigma: 30,
  progressiveQuality: 78,
  /** The side of the solid PNGs drawn nine to a card: 4000 x 4000 = 16 MP, the per-image limit. */
  megapixelSide: 4000,
  /** Frames of the many-frame animated WebPs (about 54 bytes a frame) and GIF (about 35). */
  webpFrames: [20_000, 100_000],
  gifFrames: 200_000,
};

export type BombSizes = typeof FULL_BOMB_SIZES;

/**
 * The scale the HTTP suites run at: the full bombs. Decoding drops PNG metadata unread, so the
 * 7.9 GB of zTXt costs nothing; before that change, this had to be scaled down to 3 chunks.
 */
export const BOMB_SIZES: BombSizes = FULL_BOMB_SIZES;

/** The fetcher's byte cap (`FETCH_MAX_BYTES` default): every bomb must fit under it to reach a decoder. */
export const FETCH_MAX_BYTES = FETCH_DEFAULTS.maxBytes;

export type PngBombKind = 'zTXt' | 'iTXt' | 'iCCP' | 'tEXt';
export type ChunkPlacement = 'before-idat' | 'after-idat';
export const PNG_BOMB_KINDS: readonly PngBombKind[] = ['zTXt', 'iTXt', 'iCCP', 'tEXt'];
export const CHUNK_PLACEMENTS: readonly ChunkPlacement[] = ['before-idat', 'after-idat'];

// ------------------------------------------------------------------------------------------ PNG

/** A valid 1x1 RGBA PNG's chunks: IHDR, IDAT (one opaque pixel of `rgba`), IEND. */
function onePixelPngChunks(rgba: readonly [number, number, number, number]) {
  return {
    ihdr: ihdrChunk(1, 1),
    idat: pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgba]))),
    iend: pngChunk('IEND', Buffer.alloc(0)),
  };
}

/** `bytes` of one value compressed as hard as zlib can: ~1/1030 of its size. */
const compressedRun = (bytes: number, value: number): Buffer => deflateSync(Buffer.alloc(bytes, value), { level: 9 });

/**
 * The start of an ICC profile a parser accepts far enough to read all of it: a 128-byte header
 * (size, 'mntr' class, RGB data over an XYZ connection space, 'acsp', D50) and an empty tag table,
 * the rest zeros, `size` bytes in all. Zeros compress as well as any run.
 */
function iccProfile(size: number): Buffer {
  const profile = Buffer.alloc(size);
  profile.writeUInt32BE(size, 0);
  profile.writeUInt32BE(0x02100000, 8); // version 2.1
  profile.write('mntrRGB XYZ ', 12, 'latin1');
  profile.write('acsp', 36, 'latin1');
  profile.writeUInt32BE(0x0000f6d6, 68); // D50 illuminant X, Y, Z (s15Fixed16)
  profile.writeUInt32BE(0x00010000, 72);
  profile.writeUInt32BE(0x0000d32d, 76);
  profile.writeUInt32BE(0, 128); // tag count
  return profile;
}

/** The data of one bomb chunk of `kind`; `index` keeps keywords distinct. */
function bombChunkData(kind: PngBombKind, sizes: BombSizes, index: number, compressed: Buffer): Buffer {
  const keyword = Buffer.from(`Bomb${index}\0`, 'latin1');
  switch (kind) {
    case 'zTXt': // keyword, NUL, method 0, zlib text
      return Buffer.concat([keyword, Buffer.from([0]), compressed]);
    case 'iTXt': // keyword, NUL, compression flag 1, method 0, language tag NUL, translated keyword NUL, zlib text
      return Buffer.concat([keyword, Buffer.from([1, 0, 0, 0]), compressed]);
    case 'iCCP': // profile name, NUL, method 0, zlib profile
      return Buffer.concat([keyword, Buffer.from([0]), compressed]);
    case 'tEXt': // keyword, NUL, text
      return Buffer.concat([keyword, Buffer.alloc(sizes.textChunkBytes, 0x41)]);
  }
}

/**
 * A valid 1x1 RGBA PNG with a bomb of `kind` chunks before or after its IDAT. zTXt, iTXt and iCCP
 * chunks each inflate to `inflatedChunkBytes`; tEXt chunks carry their text plainly. The colour of
 * the one pixel (`seed`) keeps bombs at different URLs distinct.
 */
export function pngBomb(kind: PngBombKind, placement: ChunkPlacement, sizes: BombSizes = BOMB_SIZES, seed = 0): Buffer {
  const { ihdr, idat, iend } = onePixelPngChunks([seed & 0xff, 0x80, 0x40, 0xff]);
  const compressed =
    kind === 'iCCP' ? deflateSync(iccProfile(sizes.inflatedChunkBytes), { level: 9 }) : kind === 'tEXt' ? Buffer.alloc(0) : compressedRun(sizes.inflatedChunkBytes, 0x41);
  const count = kind === 'tEXt' ? sizes.textChunks : sizes.compressedChunks;
  const bomb = Array.from({ length: count }, (_, index) => pngChunk(kind, bombChunkData(kind, sizes, index, compressed)));
  const body = placement === 'before-idat' ? [...bomb, idat] : [idat, ...bomb];
  return Buffer.concat([PNG_SIGNATURE, ihdr, ...body, iend]);
}


const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

// ------------------------------------------------------------------------------------------ JPEG

/** One JPEG marker segment: FF, marker, the length (payload + 2), the payload. */
function jpegSegment(marker: number, payload: Buffer): Buffer {
  if (payload.length > 65533) throw new RangeError(`a JPEG segment holds at most 65533 bytes, not ${payload.length}`);
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

export const JPEG_SEGMENT_BYTES = 65533;

/**
 * A small valid baseline JPEG (sharp) with `jpegAppSegments` full-size segments right after its
 * SOI, alternately APP1 (`Exif\0\0`, a big-endian TIFF header, then filler) and APP2
 * (`ICC_PROFILE\0`, its chunk number and count, an ICC header in the first, then filler).
 */
export async function jpegAppBomb(sizes: BombSizes = BOMB_SIZES): Promise<Buffer> {
  const base = await solid(64, 64, '#2080c0').jpeg({ quality: 90 }).toBuffer();
  const iccChunks = Math.ceil(sizes.jpegAppSegments / 2);
  const segments = Array.from({ length: sizes.jpegAppSegments }, (_, index) => {
    const payload = Buffer.alloc(JPEG_SEGMENT_BYTES, 0x41);
    if (index % 2 === 0) {
      payload.write('Exif\0\0MM\0*\0\0\0\x08', 0, 'latin1');
    } else {
      const chunk = (index - 1) / 2;
      payload.write('ICC_PROFILE\0', 0, 'latin1');
      payload[12] = chunk + 1;
      payload[13] = iccChunks;
      if (chunk === 0) iccProfile(iccChunks * (JPEG_SEGMENT_BYTES - 14)).copy(payload, 14, 0, 132);
    }
    return jpegSegment(index % 2 === 0 ? 0xe1 : 0xe2, payload);
  });
  return insertBytes(base, 2, Buffer.concat(segments));
}

/** The markers of a JPEG's segments up to its first scan, and the number of SOS markers in it. */
export function jpegMarkers(jpeg: Buffer): { headerMarkers: number[]; scans: number } {
  const headerMarkers: number[] = [];
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1]!;
    headerMarkers.push(marker);
    if (marker === 0xda) break;
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  let scans = 0;
  // Entropy-coded data stuffs every FF with 00 and restart markers are D0-D7: FF DA is only ever a marker.
  for (let at = jpeg.indexOf(0xff); at !== -1 && at + 1 < jpeg.length; at = jpeg.indexOf(0xff, at + 1)) if (jpeg[at + 1] === 0xda) scans += 1;
  return { headerMarkers, scans };
}

/**
 * A jpegtran scan script of `scans` scans for three components: one interleaved DC scan, then
 * single-component AC scans that split coefficients 1-63 of each component into bands.
 */
export function progressiveScanScript(scans: number): string {
  const acScans = scans - 1;
  if (acScans < 3 || acScans > 3 * 63) throw new RangeError(`a three-component script has 4 to 190 scans, not ${scans}`);
  const lines = ['0,1,2: 0-0, 0, 0;'];
  for (let component = 0; component < 3; component += 1) {
    const bands = Math.floor(acScans / 3) + (component < acScans % 3 ? 1 : 0);
    let start = 1;
    for (let band = 0; band < bands; band += 1) {
      const width = Math.floor(63 / bands) + (band < 63 % bands ? 1 : 0);
      lines.push(`${component}: ${start}-${start + width - 1}, 0, 0;`);
      start += width;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A `progressiveSide`² JPEG of noise (sharp) rewritten by jpegtran into `progressiveScans` scans. */
export async function progressiveJpeg(sizes: BombSizes = BOMB_SIZES): Promise<Buffer> {
  const side = sizes.progressiveSide;
  const base = await sharp({ create: { width: side, height: side, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: sizes.progressiveNoiseSigma } } })
    .jpeg({ quality: sizes.progressiveQuality })
    .toBuffer();
  const folder = await mkdtemp(join(tmpdir(), 'progressive-'));
  try {
    await writeFile(join(folder, 'base.jpg'), base);
    await writeFile(join(folder, 'scans.txt'), progressiveScanScript(sizes.progressiveScans));
    await run('jpegtran', ['-scans', join(folder, 'scans.txt'), '-outfile', join(folder, 'progressive.jpg'), join(folder, 'base.jpg')]);
    return await readFile(join(folder, 'progressive.jpg'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------ WebP


/** VP8X feature flags. */
export const VP8X_FLAGS = { icc: 0x20, alpha: 0x10, exif: 0x08, xmp: 0x04 } as const;

/**
 * An extended WebP: a small lossy still from sharp's encoder wrapped as VP8X (ICC, EXIF and XMP
 * flags set), ICCP, the image, EXIF and XMP, each metadata chunk `webpMetadataBytes` long.
 */
export async function webpMetadataBomb(sizes: BombSizes = BOMB_SIZES): Promise<Buffer> {
  const width = 48;
  const height = 32;
  const simple = await solid(width, height, '#c02060').webp({ quality: 80 }).toBuffer();
  const image = parseWebpChunks(simple).find((chunk) => chunk.fourcc === 'VP8 ' || chunk.fourcc === 'VP8L');
  if (image === undefined) throw new Error('sharp wrote a WebP without a VP8/VP8L chunk');
  const bytes = sizes.webpMetadataBytes;
  const exif = Buffer.alloc(bytes, 0x41);
  exif.write('MM\0*\0\0\0\x08', 0, 'latin1');
  const xmp = Buffer.alloc(bytes, 0x20);
  xmp.write('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><!--', 0, 'latin1');
  xmp.write('--></x:xmpmeta><?xpacket end="w"?>', bytes - 34, 'latin1');
  return riffFile([
    vp8xChunk(VP8X_FLAGS.icc | VP8X_FLAGS.exif | VP8X_FLAGS.xmp, width, height),
    riffChunk('ICCP', iccProfile(bytes)),
    riffChunk(image.fourcc, image.data),
    riffChunk('EXIF', exif),
    riffChunk('XMP ', xmp),
  ]);
}

// ------------------------------------------------------------------------------------------- GIF

/** A GIF extension block: introducer, label, the header sub-block if any, `bytes` of data in 255-byte sub-blocks, terminator. */
function gifExtension(label: number, header: Buffer | undefined, bytes: number, fill: number): Buffer {
  const parts: Buffer[] = [Buffer.from([0x21, label])];
  if (header) parts.push(Buffer.from([header.length]), header);
  for (let left = bytes; left > 0; left -= 255) {
    const size = Math.min(255, left);
    parts.push(Buffer.from([size]), Buffer.alloc(size, fill));
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/**
 * A valid 1x1 GIF89a whose image comes after `gifExtensions` extensions, alternately comments
 * (0xFE) and application extensions (0xFF, an unknown application) of `gifExtensionBytes` in all.
 */
export function gifExtensionBomb(sizes: BombSizes = BOMB_SIZES): Buffer {
  const gif = gifImage(1, 1);
  const each = Math.floor(sizes.gifExtensionBytes / sizes.gifExtensions);
  const extensions = Array.from({ length: sizes.gifExtensions }, (_, index) =>
    index % 2 === 0 ? gifExtension(0xfe, undefined, each, 0x43) : gifExtension(0xff, Buffer.from('HOSTILE!1.0', 'latin1'), each, 0x44),
  );
  return insertBytes(gif, gifBlocksStart(gif), Buffer.concat(extensions));
}

/** The extension blocks of a GIF, by label, with the data bytes of each (a test-side walk). */
export function gifExtensions(gif: Buffer): { label: number; dataBytes: number }[] {
  const found: { label: number; dataBytes: number }[] = [];
  let offset = gifBlocksStart(gif);
  while (gif[offset] === 0x21) {
    const label = gif[offset + 1]!;
    let dataBytes = 0;
    offset += 2;
    while (gif[offset] !== 0) {
      dataBytes += gif[offset]!;
      offset += 1 + gif[offset]!;
    }
    offset += 1;
    found.push({ label, dataBytes });
  }
  return found;
}

// ----------------------------------------------------------------------------------------- cache

/** Memoises an async builder: bombs are generated once per test file, on first use. */
export function memoize<T>(build: () => T | Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () => (built ??= Promise.resolve().then(build));
}
