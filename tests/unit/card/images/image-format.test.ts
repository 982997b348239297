import test from 'ava';
import { detectImageFormat } from '@utility-api/render-jobs';
import { decodeImage, sniffImageFormat } from '../../../../packages/card/src/images/decode-image.ts';
import { rejectsWithCardImageError, throwsCardImageError } from '../../../support/card/images/card-image-assertions.ts';
import { buildGif, encodeJpeg, encodePng, encodeWebp, RED, solidCanvas, solidGifFrame } from '../../../fixtures/images.ts';

test('the four supported formats are recognised by their magic bytes', async (t) => {
  const canvas = solidCanvas(4, 4, RED);
  t.is(detectImageFormat(encodePng(canvas)), 'png');
  t.is(detectImageFormat(encodeJpeg(canvas)), 'jpeg');
  t.is(detectImageFormat(buildGif({ width: 4, height: 4, palette: [[255, 0, 0]], frames: [solidGifFrame(4, 4, 0)] })), 'gif');
  t.is(detectImageFormat(await encodeWebp(canvas, { lossless: true })), 'webp');
  t.is(detectImageFormat(Buffer.from('GIF87a', 'latin1')), 'gif');
});

test('an HTML error page served as image/png is unsupported_format: the Content-Type is never trusted', async (t) => {
  const html = Buffer.from('<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>Not Found</body></html>');
  const error = await rejectsWithCardImageError(t, decodeImage(html, { field: 'customBackground' }), 'unsupported_format', 'customBackground');
  t.regex(error?.message ?? '', /not a PNG, JPEG, GIF or WebP image/);
});

test('an SVG is unsupported_format, with or without an XML declaration', async (t) => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>';
  await rejectsWithCardImageError(t, decodeImage(Buffer.from(svg), { field: 'customBadges.0' }), 'unsupported_format', 'customBadges.0');
  await rejectsWithCardImageError(t, decodeImage(Buffer.from(`<?xml version="1.0"?>\n${svg}`), { field: 'avatar' }), 'unsupported_format', 'avatar');
});

const otherFormats: [name: string, bytes: Buffer][] = [
  ['BMP', Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(60)])],
  ['TIFF (little-endian)', Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00])],
  ['TIFF (big-endian)', Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08])],
  ['AVIF', Buffer.concat([Buffer.from([0x00, 0x00, 0x00, 0x1c]), Buffer.from('ftypavif\0\0\0\0avifmif1miaf', 'latin1')])],
  ['a RIFF file that is not WebP (WAV)', Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WAVEfmt ', 'latin1')])],
  ['the first half of a PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  ['SOI without a following marker', Buffer.from([0xff, 0xd8, 0x00, 0x00])],
  ['"GIF" without a version', Buffer.from('GIF90a', 'latin1')],
  ['plain text', Buffer.from('hello')],
];

for (const [name, bytes] of otherFormats) {
  test(`${name} is unsupported_format`, (t) => {
    t.is(detectImageFormat(bytes), undefined);
    throwsCardImageError(t, () => sniffImageFormat(bytes, 'banner'), 'unsupported_format', 'banner');
  });
}

test('empty bytes are unsupported_format with a message saying so', async (t) => {
  const error = await rejectsWithCardImageError(t, decodeImage(Buffer.alloc(0), { field: 'avatarDecoration' }), 'unsupported_format', 'avatarDecoration');
  t.regex(error?.message ?? '', /empty/);
});
