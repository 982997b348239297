/**
 * The body inspector on its own, fed one byte at a time (the worst split a sender can choose):
 * good images are accepted whatever the split, bombs are refused within a few dozen bytes.
 */
import { CardImageError, readImageHeader } from '@utility-api/card/image-inspection';
import { ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { declaredSizeLowerBound } from '../../packages/safe-fetch/src/declared-size.ts';
import { ImageStreamInspector } from '../../packages/safe-fetch/src/image-stream-inspector.ts';
import { gifBombHead, gifImage, jpegBombHead, jpegImage, pngBombHead, pngImage, WEBP_LOSSLESS_5X3, WEBP_LOSSY_5X3, webpBombHead } from './images.ts';

const GOOD = {
  png: pngImage(33, 17),
  jpeg: jpegImage(50, 20),
  gif: gifImage(3, 3, { frames: 3, frameWidth: 5, frameHeight: 2 }),
  webpLossless: WEBP_LOSSLESS_5X3,
  webpLossy: WEBP_LOSSY_5X3,
};

/** Pushes byte by byte; returns how many bytes had been pushed when it threw, or the result. */
function feedBytewise(bytes: Buffer, maxBytes = 1024 * 1024): { refusedAfter: number; error: unknown } | { header: { width: number; height: number } } {
  const inspector = new ImageStreamInspector('customBackground', maxBytes);
  for (let at = 0; at < bytes.length; at += 1) {
    try {
      inspector.push(bytes.subarray(at, at + 1));
    } catch (error) {
      return { refusedAfter: at + 1, error };
    }
  }
  return { header: inspector.finish().header };
}

for (const [name, bytes] of Object.entries(GOOD)) {
  test(`${name} fed one byte at a time is accepted with the header's size`, (t) => {
    const result = feedBytewise(bytes);
    const expected = readImageHeader(bytes, name.startsWith('webp') ? 'webp' : (name as 'png' | 'jpeg' | 'gif'), 'x');
    t.true('header' in result);
    if ('header' in result) t.deepEqual([result.header.width, result.header.height], [expected.width, expected.height]);
  });

  if (name === 'jpeg') continue; // no early read: readImageHeader already works on a JPEG prefix
  test(`${name}: the early size read never exceeds the real one, at any prefix`, (t) => {
    const header = readImageHeader(bytes, name.startsWith('webp') ? 'webp' : (name as 'png' | 'jpeg' | 'gif'), 'x');
    for (let length = 0; length <= bytes.length; length += 1) {
      const declared = declaredSizeLowerBound(bytes.subarray(0, length), header.format);
      if (declared === undefined) continue;
      t.true(declared.width <= header.width && declared.height <= header.height, `prefix ${length}`);
    }
  });
}

test('bombs are refused within the first few dozen bytes, long before their bodies', (t) => {
  const bombs: [string, Buffer][] = [
    ['png', Buffer.concat([pngBombHead(30000, 30000, 1_000_000), Buffer.alloc(4096)])],
    ['jpeg', Buffer.concat([jpegBombHead(30000, 30000), Buffer.alloc(4096, 0x11)])],
    ['gif', Buffer.concat([gifBombHead(20000, 20000), Buffer.alloc(4096, 0x7f)])],
    ['webp', Buffer.concat([webpBombHead(20000, 20000, 1_000_000), Buffer.alloc(4096)])],
  ];
  for (const [name, bytes] of bombs) {
    const result = feedBytewise(bytes);
    t.true('refusedAfter' in result, name);
    if (!('refusedAfter' in result)) continue;
    t.true(result.error instanceof CardImageError && result.error.reason === 'too_large', name);
    t.log(`${name} bomb refused after ${result.refusedAfter} bytes`);
    // Inspections run when the body has doubled, so at most twice the header length.
    t.true(result.refusedAfter <= 64, `${name} refused after ${result.refusedAfter} bytes`);
  }
});

test('non-images are refused at 12 bytes; the byte cap counts every byte', (t) => {
  const html = feedBytewise(Buffer.from('<!DOCTYPE html><html><body>' + ' '.repeat(5000)));
  t.true('refusedAfter' in html && html.refusedAfter <= 24 && html.error instanceof CardImageError);
  const capped = feedBytewise(GOOD.png, 100);
  t.true('refusedAfter' in capped && capped.refusedAfter === 101 && capped.error instanceof ImageFetchError);
});
