/**
 * The body inspector on its own, fed one byte at a time (the worst split a sender can choose) and
 * split at every possible point: good images are accepted with their true size whatever the
 * split, bombs are refused within a few dozen bytes.
 */
import { ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { ImageStreamInspector } from '../../../packages/safe-fetch/src/image-stream-inspector.ts';
import { gifBombHead, gifImage, jpegBombHead, jpegImage, pngBombHead, pngImage, WEBP_LOSSLESS_5X3, WEBP_LOSSY_5X3, webpBombHead } from '../../fixtures/images.ts';

const GOOD: Record<string, { bytes: Buffer; size: [number, number] }> = {
  png: { bytes: pngImage(33, 17), size: [33, 17] },
  jpeg: { bytes: jpegImage(50, 20), size: [50, 20] },
  // A 3x3 screen whose frames are 5x2: decoders grow the canvas to 5x3, and so does the inspector.
  gif: { bytes: gifImage(3, 3, { frames: 3, frameWidth: 5, frameHeight: 2 }), size: [5, 3] },
  webpLossless: { bytes: WEBP_LOSSLESS_5X3, size: [5, 3] },
  webpLossy: { bytes: WEBP_LOSSY_5X3, size: [5, 3] },
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

for (const [name, { bytes, size }] of Object.entries(GOOD)) {
  test(`${name} fed one byte at a time is accepted with the header's size`, (t) => {
    const result = feedBytewise(bytes);
    t.true('header' in result);
    if ('header' in result) t.deepEqual([result.header.width, result.header.height], size);
  });

  test(`${name}: split at any point, the first inspection never misreads the size`, (t) => {
    // The first inspection sees exactly the first piece: every prefix length gets its turn at
    // being read by image-size before the rest arrives.
    for (let split = 1; split < bytes.length; split += 1) {
      const inspector = new ImageStreamInspector('customBackground', 1024 * 1024);
      inspector.push(Buffer.from(bytes.subarray(0, split)));
      inspector.push(Buffer.from(bytes.subarray(split)));
      const { header } = inspector.finish();
      t.deepEqual([header.width, header.height], size, `split at ${split}`);
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
    t.true(result.error instanceof ImageFetchError && result.error.reason === 'too_many_pixels', name);
    t.log(`${name} bomb refused after ${result.refusedAfter} bytes`);
    // Inspections run when the body has doubled, so at most twice the header length.
    t.true(result.refusedAfter <= 64, `${name} refused after ${result.refusedAfter} bytes`);
  }
});

test('a JPEG whose first segment is its frame header is judged by it at once (image-size would skip it)', (t) => {
  const result = feedBytewise(Buffer.concat([jpegBombHead(30000, 30000, { frameFirst: true }), Buffer.alloc(4096, 0x11)]));
  t.true('refusedAfter' in result && result.refusedAfter <= 16);
  if ('refusedAfter' in result) t.is((result.error as ImageFetchError).reason, 'too_many_pixels');
});

test('a real JPEG stripped of its metadata (frame header first) is accepted with its own size', (t) => {
  const jpeg = GOOD.jpeg!.bytes;
  t.is(jpeg[3]! & 0xf0, 0xe0, 'the fixture starts with an APPn segment');
  const stripped = Buffer.concat([jpeg.subarray(0, 2), jpeg.subarray(4 + jpeg.readUInt16BE(4))]);
  const result = feedBytewise(stripped);
  t.true('header' in result);
  if ('header' in result) t.deepEqual([result.header.width, result.header.height], GOOD.jpeg!.size);
});

test('a body with no readable size in its first MiB is refused there, not read to the cap', (t) => {
  // A JPEG start followed by a megabyte of bytes that never form a frame header.
  const endless = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(2 * 1024 * 1024, 0x11)]);
  const inspector = new ImageStreamInspector('customBackground', 8 * 1024 * 1024);
  const error = t.throws(() => {
    for (let at = 0; at < endless.length; at += 64 * 1024) inspector.push(endless.subarray(at, at + 64 * 1024));
  }, { instanceOf: ImageFetchError });
  t.is(error?.reason, 'corrupt');
  t.is(error?.message, 'customBackground: the JPEG file holds more than 1 MiB before its image size (metadata before the image is limited to 1 MiB)');
});

test('non-images are refused at 12 bytes; the byte cap counts every byte', (t) => {
  const html = feedBytewise(Buffer.from('<!DOCTYPE html><html><body>' + ' '.repeat(5000)));
  t.true('refusedAfter' in html && html.refusedAfter <= 24 && html.error instanceof ImageFetchError && html.error.reason === 'unsupported_format');
  const capped = feedBytewise(GOOD.png!.bytes, 100);
  t.true('refusedAfter' in capped && capped.refusedAfter === 101 && capped.error instanceof ImageFetchError && capped.error.reason === 'too_large');
});
