/**
 * Good images pass through byte for byte, with the format from their magic bytes (never the
 * Content-Type) and the size from their header.
 */
import type { ImageFormat } from '@utility-api/render-jobs';
import { createImageFetcher } from '@utility-api/safe-fetch';
import test from 'ava';
import { gifImage, jpegImage, pngImage, WEBP_LOSSLESS_5X3, WEBP_LOSSY_5X3 } from '../../fixtures/images.ts';
import { type RecordingServer, startRecordingServer } from '../../support/safe-fetch/recording-server.ts';

const IMAGES: Record<string, { bytes: Buffer; format: ImageFormat; width: number; height: number }> = {
  '/photo.png': { bytes: pngImage(321, 123), format: 'png', width: 321, height: 123 },
  '/photo.jpg': { bytes: jpegImage(640, 360), format: 'jpeg', width: 640, height: 360 },
  '/small.gif': { bytes: gifImage(7, 5), format: 'gif', width: 7, height: 5 },
  '/grown.gif': { bytes: gifImage(2, 2, { frameWidth: 9, frameHeight: 4 }), format: 'gif', width: 9, height: 4 },
  '/lossless.webp': { bytes: WEBP_LOSSLESS_5X3, format: 'webp', width: 5, height: 3 },
  '/lossy.webp': { bytes: WEBP_LOSSY_5X3, format: 'webp', width: 5, height: 3 },
  '/large.png': { bytes: pngImage(2000, 1500), format: 'png', width: 2000, height: 1500 },
};

let server: RecordingServer;

test.before(async () => {
  server = await startRecordingServer();
  for (const [path, image] of Object.entries(IMAGES)) {
    // Deliberately wrong Content-Types: the bytes decide.
    server.route(path, (_request, response) => {
      response.writeHead(200, { 'Content-Type': path.endsWith('.png') ? 'text/html' : 'application/octet-stream' });
      // Written in small pieces so the header arrives split across reads.
      for (let at = 0; at < image.bytes.length; at += 7) response.write(image.bytes.subarray(at, at + 7));
      response.end();
    });
  }
});

test.after.always(async () => {
  await server.close();
});

const fetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'] });

for (const [path, expected] of Object.entries(IMAGES)) {
  test(`${path} passes through as ${expected.format} ${expected.width}x${expected.height}`, async (t) => {
    const image = await fetcher.fetchImage(`${server.origin}${path}?size=original#fragment`, 'customBackground');
    t.is(image.format, expected.format);
    t.is(image.width, expected.width);
    t.is(image.height, expected.height);
    t.true(image.bytes.equals(expected.bytes));
    t.is(image.url, `${server.origin}${path}?size=original#fragment`);
    const seen = server.requests.find((request) => request.path.startsWith(path));
    t.is(seen?.path, `${path}?size=original`); // the fragment stays on this side
    t.is(seen?.method, 'GET');
    t.is(seen?.headers['user-agent'], 'utility-api-image-fetcher/1.0');
  });
}
