/**
 * The bomb generators checked on their own, at full size, against parsers that are not the one
 * under test: a table CRC-32 and a chunk walk written here, zlib, pngjs, sharp, webpmux, gifsicle.
 */
import { inflateSync } from 'node:zlib';
import test from 'ava';
import sharp from 'sharp';
import { PNG } from 'pngjs';
import { parsePngChunks, parseWebpChunks, solidPng } from '../../fixtures/images.ts';
import { runWithInput } from '../../helpers/image-tools.ts';
import {
  BOMB_SIZES,
  CHUNK_PLACEMENTS,
  FETCH_MAX_BYTES,
  FULL_BOMB_SIZES,
  gifExtensionBomb,
  gifExtensions,
  JPEG_SEGMENT_BYTES,
  jpegAppBomb,
  jpegMarkers,
  PNG_BOMB_KINDS,
  pngBomb,
  progressiveJpeg,
  progressiveScanScript,
  VP8X_FLAGS,
  webpMetadataBomb,
} from '../../support/hostile-images/bombs.ts';

const FULL = FULL_BOMB_SIZES;

/** CRC-32 (ISO 3309, as PNG uses it) from its table: independent of the zlib crc32 the generator uses. */
const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});
function tableCrc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

test('the table CRC-32 gives the standard check value', (t) => {
  t.is(tableCrc32(Buffer.from('123456789', 'latin1')), 0xcbf43926);
});

test('the HTTP suites run the full bombs, the ones production must survive', (t) => {
  t.is(FULL.compressedChunks, 1000);
  t.is(BOMB_SIZES, FULL);
});

for (const kind of PNG_BOMB_KINDS) {
  for (const placement of CHUNK_PLACEMENTS) {
    test(`PNG ${kind} bomb ${placement}: valid 1x1 RGBA, correct CRCs, every bomb chunk where it belongs, under the fetch cap`, async (t) => {
      const png = pngBomb(kind, placement, FULL);
      t.true(png.length < FETCH_MAX_BYTES, `${png.length} bytes`);
      t.log(`${kind} ${placement}: ${(png.length / 1e6).toFixed(2)} MB`);

      const chunks = parsePngChunks(png);
      for (const chunk of chunks) t.is(chunk.raw.readUInt32BE(chunk.raw.length - 4), tableCrc32(chunk.raw.subarray(4, chunk.raw.length - 4)), `${chunk.type} CRC`);
      const types = chunks.map((chunk) => chunk.type);
      const count = kind === 'tEXt' ? FULL.textChunks : FULL.compressedChunks;
      const bombs = Array.from({ length: count }, () => kind);
      t.deepEqual(types, placement === 'before-idat' ? ['IHDR', ...bombs, 'IDAT', 'IEND'] : ['IHDR', 'IDAT', ...bombs, 'IEND']);

      const bombChunks = chunks.filter((chunk) => chunk.type === kind);
      for (const chunk of [bombChunks[0]!, bombChunks.at(-1)!]) {
        const keywordEnd = chunk.data.indexOf(0);
        t.true(keywordEnd >= 1 && keywordEnd <= 79, 'a 1-79 byte keyword');
        if (kind === 'tEXt') {
          t.is(chunk.data.length - keywordEnd - 1, FULL.textChunkBytes);
          continue;
        }
        // zTXt and iCCP: method 0, then zlib; iTXt: compression flag 1, method 0, empty language and translated keyword.
        const header = kind === 'iTXt' ? [1, 0, 0, 0] : [0];
        t.deepEqual([...chunk.data.subarray(keywordEnd + 1, keywordEnd + 1 + header.length)], header);
        const inflated = inflateSync(chunk.data.subarray(keywordEnd + 1 + header.length), { maxOutputLength: FULL.inflatedChunkBytes });
        t.is(inflated.length, FULL.inflatedChunkBytes, 'inflates to the bomb size');
        if (kind === 'iCCP') {
          t.is(inflated.readUInt32BE(0), inflated.length, 'the profile declares its own size');
          t.is(inflated.toString('latin1', 36, 40), 'acsp');
        }
      }

      // pngjs skips text chunks; libpng (and so sharp's metadata()) would inflate all 7.9 GB of them.
      const decoded = PNG.sync.read(png);
      t.deepEqual([decoded.width, decoded.height, decoded.data.length], [1, 1, 4]);
    });
  }
}

test('PNG bombs with different seeds are different files', (t) => {
  t.notDeepEqual(pngBomb('zTXt', 'before-idat', BOMB_SIZES, 1), pngBomb('zTXt', 'before-idat', BOMB_SIZES, 2));
});

test('JPEG APP bomb: alternating full APP1 (Exif) and APP2 (ICC_PROFILE) segments right after SOI, and still a 64x64 JPEG', async (t) => {
  const jpeg = await jpegAppBomb(FULL);
  t.true(jpeg.length < FETCH_MAX_BYTES, `${jpeg.length} bytes`);
  t.true(jpeg.length > FULL.jpegAppSegments * JPEG_SEGMENT_BYTES);
  t.deepEqual([jpeg[0], jpeg[1]], [0xff, 0xd8]);
  const { headerMarkers } = jpegMarkers(jpeg);
  t.deepEqual(headerMarkers.slice(0, FULL.jpegAppSegments), Array.from({ length: FULL.jpegAppSegments }, (_, index) => (index % 2 === 0 ? 0xe1 : 0xe2)));
  t.true(headerMarkers.includes(0xc0), 'baseline frame');
  let offset = 2;
  for (let index = 0; index < FULL.jpegAppSegments; index += 1) {
    t.is(jpeg.readUInt16BE(offset + 2), JPEG_SEGMENT_BYTES + 2);
    t.is(jpeg.toString('latin1', offset + 4, offset + 4 + (index % 2 === 0 ? 6 : 12)), index % 2 === 0 ? 'Exif\0\0' : 'ICC_PROFILE\0');
    offset += 2 + JPEG_SEGMENT_BYTES + 2;
  }
  const metadata = await sharp(jpeg).metadata();
  t.deepEqual([metadata.format, metadata.width, metadata.height], ['jpeg', 64, 64]);
});

test('WebP metadata bomb: webpmux sees the VP8X canvas and ICC, EXIF and XMP chunks of the bomb size', async (t) => {
  const webp = await webpMetadataBomb(FULL);
  t.true(webp.length < FETCH_MAX_BYTES, `${webp.length} bytes`);
  t.is(webp.readUInt32LE(4), webp.length - 8, 'RIFF size');
  t.deepEqual(
    parseWebpChunks(webp).map((chunk) => chunk.fourcc),
    ['VP8X', 'ICCP', 'VP8 ', 'EXIF', 'XMP '],
  );
  t.is(parseWebpChunks(webp)[0]!.data[0], VP8X_FLAGS.icc | VP8X_FLAGS.exif | VP8X_FLAGS.xmp);
  const { stdout } = await runWithInput('webpmux', ['-info', '-'], webp);
  t.regex(stdout, /Canvas size: 48 x 32/);
  t.regex(stdout, /Features present: ICC profile EXIF metadata XMP metadata/);
  for (const what of ['ICC profile data', 'EXIF metadata', 'XMP metadata']) t.regex(stdout, new RegExp(`Size of the ${what}: ${FULL.webpMetadataBytes}\\b`));
  const metadata = await sharp(webp).metadata();
  t.deepEqual([metadata.format, metadata.width, metadata.height], ['webp', 48, 32]);
});

test('GIF extension bomb: gifsicle reads one 1x1 image after the comment and application extensions', async (t) => {
  const gif = gifExtensionBomb(FULL);
  t.true(gif.length < FETCH_MAX_BYTES, `${gif.length} bytes`);
  const extensions = gifExtensions(gif);
  const comments = extensions.filter((extension) => extension.label === 0xfe);
  const applications = extensions.filter((extension) => extension.label === 0xff);
  t.is(comments.length + applications.length, FULL.gifExtensions);
  t.true(comments.length > 0 && applications.length > 0);
  const total = extensions.reduce((sum, extension) => sum + extension.dataBytes, 0);
  t.true(total >= FULL.gifExtensionBytes - 12 * FULL.gifExtensions, `${total} extension bytes`);
  const { stdout } = await runWithInput('gifsicle', ['--info'], gif);
  t.regex(stdout, /^\* <stdin> 1 image$/m);
  t.regex(stdout, /logical screen 1x1/);
  t.regex(stdout, new RegExp(`^  extensions ${applications.length}$`, 'm'));
  t.regex(stdout, /\+ image #0 1x1/);
  t.regex(stdout, /comment C{255}/);
  const metadata = await sharp(gif).metadata();
  t.deepEqual([metadata.format, metadata.width, metadata.height], ['gif', 1, 1]);
});

test('the progressive scan script has the asked number of scans and covers every coefficient of every component once', (t) => {
  const lines = progressiveScanScript(FULL.progressiveScans).trim().split('\n');
  t.is(lines.length, FULL.progressiveScans);
  for (const component of [0, 1, 2]) {
    const covered = lines
      .flatMap((line) => {
        const match = /^([\d,]+): (\d+)-(\d+), 0, 0;$/.exec(line);
        if (!match || !match[1]!.split(',').includes(String(component))) return [];
        return Array.from({ length: Number(match[3]) - Number(match[2]) + 1 }, (_, index) => Number(match[2]) + index);
      })
      .sort((a, b) => a - b);
    t.deepEqual(covered, Array.from({ length: 64 }, (_, index) => index), `component ${component}`);
  }
});

test('progressive JPEG: 4000x4000, exactly 100 scans (SOS markers), 5-8 MB', async (t) => {
  t.timeout(120_000);
  const jpeg = await progressiveJpeg(FULL);
  t.log(`${(jpeg.length / 1e6).toFixed(2)} MB`);
  t.true(jpeg.length > 5_000_000 && jpeg.length < FETCH_MAX_BYTES, `${jpeg.length} bytes`);
  t.is(jpegMarkers(jpeg).scans, FULL.progressiveScans);
  t.true(jpegMarkers(jpeg).headerMarkers.includes(0xc2), 'a progressive (SOF2) frame');
  const metadata = await sharp(jpeg).metadata();
  t.deepEqual([metadata.format, metadata.width, metadata.height, metadata.isProgressive], ['jpeg', 4000, 4000, true]);
});

test('16 MP PNGs: 4000x4000, small files, one per colour', async (t) => {
  const first = solidPng(FULL.megapixelSide, FULL.megapixelSide, '#ff0000');
  const second = solidPng(FULL.megapixelSide, FULL.megapixelSide, '#00ff00');
  t.true(first.length < 1_000_000, `${first.length} bytes`);
  t.notDeepEqual(first, second);
  const metadata = await sharp(first).metadata();
  t.deepEqual([metadata.width, metadata.height], [4000, 4000]);
});
