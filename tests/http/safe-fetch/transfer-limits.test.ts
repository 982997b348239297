/**
 * What a hostile image server can do once it is allowed to answer: drip, lie about lengths, send
 * endless or compressed bodies, HTML, truncated files and pixel bombs. Loopback is allow-listed.
 * Time bounds are generous on purpose (the point is "long before the body would end"), and every
 * slow server is stopped when the fetch gives up, which the tests check from the server side.
 */
import { type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { createImageFetcher, ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { freePort } from '../../helpers/processes.ts';
import { gifBombHead, gifImage, jpegBombHead, pngBombHead, pngImage, webpBombHead } from '../../fixtures/images.ts';
import { type RecordingServer, sleep, startRawServer, startRecordingServer, writeUntilClosed } from '../../support/safe-fetch/recording-server.ts';

const PNG = pngImage(40, 30);
const MiB = 1024 * 1024;
let server: RecordingServer;
/** Paths whose response stream the server saw closed (by the client giving up). */
const closedResponses = new Set<string>();

/** Streams `head`, then `piece` every `everyMs` until the client goes away; never ends the body. */
function trickle(response: ServerResponse, path: string, head: Buffer, piece: Buffer, everyMs: number, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'Content-Type': 'image/png', ...headers });
  response.write(head);
  const timer = setInterval(() => response.write(piece), everyMs);
  response.on('close', () => {
    clearInterval(timer);
    closedResponses.add(path);
  });
}

const DRIP_INTERVAL_MS = 100;

test.before(async () => {
  server = await startRecordingServer();
  server.route('/drip.png', (_request, response) => {
    let sent = 0;
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(PNG.length) });
    const timer = setInterval(() => response.write(PNG.subarray(sent, ++sent)), DRIP_INTERVAL_MS);
    response.on('close', () => {
      clearInterval(timer);
      closedResponses.add('/drip.png');
    });
  });
  server.route('/huge-declared.png', (_request, response) => trickle(response, '/huge-declared.png', PNG.subarray(0, 8), Buffer.alloc(1), 1000, { 'Content-Length': String(50 * MiB) }));
  server.route('/endless-chunked.png', (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'image/png' });
    response.write(PNG.subarray(0, 100));
    const piece = Buffer.alloc(64 * 1024);
    const pump = () => {
      while (!response.destroyed && response.write(piece));
    };
    response.on('drain', pump);
    response.on('close', () => closedResponses.add('/endless-chunked.png'));
    pump();
  });
  server.route('/page.png', (_request, response) => trickle(response, '/page.png', Buffer.from('<!DOCTYPE html>\n<html><head><title>Not an image</title>'), Buffer.from(' '), 500));
  server.route('/svg.png', (_request, response) => void response.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'));
  server.route('/png-bomb.png', (_request, response) => trickle(response, '/png-bomb.png', pngBombHead(30000, 30000, 10 * MiB), Buffer.alloc(1024), 50));
  server.route('/jpeg-bomb.jpg', (_request, response) => trickle(response, '/jpeg-bomb.jpg', jpegBombHead(30000, 30000), Buffer.alloc(1024, 0x11), 50));
  server.route('/gif-bomb.gif', (_request, response) => trickle(response, '/gif-bomb.gif', gifBombHead(20000, 20000), Buffer.alloc(256, 0x7f), 50));
  server.route('/webp-bomb.webp', (_request, response) => trickle(response, '/webp-bomb.webp', webpBombHead(20000, 20000, 10 * MiB), Buffer.alloc(1024), 50));
  server.route('/wide.png', (_request, response) => trickle(response, '/wide.png', pngBombHead(9000, 10, 10 * MiB), Buffer.alloc(1024), 50));
  server.route('/cut-header.png', (_request, response) => void response.writeHead(200).end(PNG.subarray(0, 20)));
  server.route('/cut-connection.png', (_request, response) => {
    response.writeHead(200, { 'Content-Length': String(PNG.length) });
    response.write(PNG.subarray(0, PNG.length >> 1), () => setTimeout(() => response.socket?.destroy(), 50));
  });
  server.route('/empty.png', (_request, response) => void response.writeHead(200).end());
  server.route('/gzip.png', (_request, response) => void response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(PNG)));
  server.route('/missing.png', (_request, response) => void response.writeHead(404).end('gone'));
  server.route('/error.png', (_request, response) => void response.writeHead(500).end(PNG));
  server.route('/animated.gif', (_request, response) => void response.writeHead(200).end(gifImage(1, 1, { frames: 20000 })));
});

test.after.always(async () => {
  await server.close();
});

const fetcher = (settings: Parameters<typeof createImageFetcher>[0] = {}) => createImageFetcher({ allowPrivateHosts: ['127.0.0.1'], ...settings });
const url = (path: string) => `${server.origin}${path}`;

async function closedByServer(path: string): Promise<boolean> {
  // A poll for the server's 'close', with a backstop far beyond what a loaded machine takes.
  for (let waited = 0; waited < 20_000 && !closedResponses.has(path); waited += 20) await sleep(20);
  return closedResponses.has(path);
}

test('a body dripping one byte every 100 ms is cut off at the total deadline', async (t) => {
  const deadlineMs = 500;
  const started = performance.now();
  const error = await t.throwsAsync(fetcher({ deadlineMs }).fetchImage(url('/drip.png'), 'customBackground'), { instanceOf: ImageFetchError });
  const elapsed = performance.now() - started;
  t.is(error?.reason, 'timeout');
  t.is(error?.message, `customBackground: the image did not arrive within ${deadlineMs} ms`);
  // Not before the deadline (timers never fire early; a tenth for the clocks' granularity); after it,
  // sooner than the drip would have delivered the whole body: no bound a loaded machine can break.
  t.true(elapsed >= deadlineMs * 0.9 && elapsed < PNG.length * DRIP_INTERVAL_MS, `${elapsed} ms`);
  t.true(await closedByServer('/drip.png'));
});

test('a Content-Length over the cap is refused before the body is read', async (t) => {
  const deadlineMs = 10_000;
  const started = performance.now();
  const error = await t.throwsAsync(fetcher({ deadlineMs }).fetchImage(url('/huge-declared.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_large');
  t.is(error?.message, 'customBackground: the image is larger than 8 MiB');
  // Ended by the header, not by the deadline that would otherwise end it.
  t.true(performance.now() - started < deadlineMs);
  t.true(await closedByServer('/huge-declared.png'));
});

test('an endless chunked body is cut at the byte cap', async (t) => {
  const error = await t.throwsAsync(fetcher({ maxBytes: MiB, deadlineMs: 20_000 }).fetchImage(url('/endless-chunked.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_large');
  t.true(await closedByServer('/endless-chunked.png'));
});

test('a body without Content-Length, ended by closing the connection, is cut at the cap', async (t) => {
  let written = Promise.resolve(0);
  const raw = await startRawServer((socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n');
    socket.write(PNG.subarray(0, 100));
    written = writeUntilClosed(socket, 256 * MiB);
  });
  t.teardown(() => raw.close());
  const error = await t.throwsAsync(fetcher({ maxBytes: MiB, deadlineMs: 20_000 }).fetchImage(`${raw.origin}/a.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_large');
  t.log(`the sender got ${await written} bytes into the socket before it was closed`);
  // Kernel buffers hold a few MiB at most; the sender is stopped far short of the 256 MiB it wanted to send.
  t.true((await written) < 64 * MiB, `${await written} bytes written`);
});

test('a small Content-Length followed by a huge body: never more than the announced bytes', async (t) => {
  let written = Promise.resolve(0);
  const raw = await startRawServer((socket) => {
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${PNG.length}\r\n\r\n`);
    socket.write(PNG);
    written = writeUntilClosed(socket, 256 * MiB);
  });
  t.teardown(() => raw.close());
  // Depending on how the bytes are split into reads, the body ends first (the image is exactly the
  // announced bytes) or the parser trips on the excess first (refused as a malformed response).
  const outcome = await fetcher({ deadlineMs: 20_000 })
    .fetchImage(`${raw.origin}/a.png`, 'customBackground')
    .then((image) => image.bytes, (error: unknown) => error);
  if (Buffer.isBuffer(outcome)) t.true(outcome.equals(PNG));
  else {
    t.true(outcome instanceof ImageFetchError);
    t.is((outcome as ImageFetchError).message, 'customBackground: the image server 127.0.0.1 sent a malformed HTTP response');
  }
  t.log(`the sender got ${await written} bytes into the socket before it was closed`);
  t.true((await written) < 64 * MiB, `${await written} bytes written`);
});

test('HTML labelled image/png is refused on its first bytes, without waiting for the rest', async (t) => {
  const deadlineMs = 20_000;
  const started = performance.now();
  const error = await t.throwsAsync(fetcher({ deadlineMs }).fetchImage(url('/page.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'unsupported_format');
  t.regex(error?.message ?? '', /^customBackground: the file is not a PNG, JPEG, GIF or WebP image/);
  // Ended by the first bytes, not by the deadline that would otherwise end it.
  t.true(performance.now() - started < deadlineMs);
  t.true(await closedByServer('/page.png'));
});

test('SVG is refused whatever its Content-Type', async (t) => {
  const error = await t.throwsAsync(fetcher().fetchImage(url('/svg.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'unsupported_format');
});

for (const [path, size] of [['/png-bomb.png', '30000x30000'], ['/jpeg-bomb.jpg', '30000x30000'], ['/gif-bomb.gif', '20000x20000'], ['/webp-bomb.webp', '20000x20000']] as const) {
  test(`a pixel bomb (${path}, ${size}) is refused from its header while the body is still streaming`, async (t) => {
    // The body would take minutes at 1 KiB per 50 ms; the deadline is far away, so only the header can end this early.
    const deadlineMs = 30_000;
    const started = performance.now();
    const error = await t.throwsAsync(fetcher({ deadlineMs }).fetchImage(url(path), 'customBackground'), { instanceOf: ImageFetchError });
    t.is(error?.reason, 'too_many_pixels');
    t.is(error?.message, `customBackground: the image is ${size} pixels; the limit is 16 megapixels`);
    t.true(performance.now() - started < deadlineMs);
    t.true(await closedByServer(path));
  });
}

test('a side over 8192 pixels is refused early even under the pixel limit', async (t) => {
  const error = await t.throwsAsync(fetcher({ deadlineMs: 30_000 }).fetchImage(url('/wide.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_many_pixels');
  t.regex(error?.message ?? '', /9000x10 pixels; each side may be at most 8192/);
});

test('a PNG cut inside its header is corrupt; a connection cut before Content-Length is truncated', async (t) => {
  const corrupt = await t.throwsAsync(fetcher().fetchImage(url('/cut-header.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(corrupt?.reason, 'corrupt');
  const truncated = await t.throwsAsync(fetcher().fetchImage(url('/cut-connection.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(truncated?.reason, 'truncated');
  const empty = await t.throwsAsync(fetcher().fetchImage(url('/empty.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(empty?.reason, 'unsupported_format');
});

test('identity encoding is asked for, and a compressed response is refused', async (t) => {
  server.requests.length = 0;
  const error = await t.throwsAsync(fetcher().fetchImage(url('/gzip.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'unsupported_encoding');
  const request = server.requests.find((seen) => seen.path === '/gzip.png');
  t.is(request?.headers['accept-encoding'], 'identity');
  t.notRegex(request?.headers.accept ?? '', /svg/);
});

test('an animated GIF with 20,000 frames is handled: read to its end within the cap, refused cleanly under a smaller one', async (t) => {
  const image = await fetcher().fetchImage(url('/animated.gif'), 'customBackground');
  t.deepEqual([image.format, image.width, image.height], ['gif', 1, 1]);
  t.true(image.bytes.length > 200_000);
  const error = await t.throwsAsync(fetcher({ maxBytes: 64 * 1024 }).fetchImage(url('/animated.gif'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_large');
  t.is(error?.message, 'customBackground: the image is larger than 65,536 bytes');
});

test('the per-call maxBytes can tighten the cap but never raise it', async (t) => {
  const small = await t.throwsAsync(fetcher().fetchImage(url('/animated.gif'), 'customBadges.0', { maxBytes: 1000 }), { instanceOf: ImageFetchError });
  t.is(small?.reason, 'too_large');
  const raised = await t.throwsAsync(fetcher({ maxBytes: 1000 }).fetchImage(url('/animated.gif'), 'customBadges.0', { maxBytes: 100 * MiB }), { instanceOf: ImageFetchError });
  t.is(raised?.reason, 'too_large');
  await t.throwsAsync(fetcher().fetchImage(url('/animated.gif'), 'customBadges.0', { maxBytes: -1 }), { instanceOf: RangeError });
});

test('non-2xx statuses are http_status, whatever the body', async (t) => {
  const missing = await t.throwsAsync(fetcher().fetchImage(url('/missing.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(missing?.reason, 'http_status');
  t.is(missing?.message, 'customBackground: the image server answered HTTP 404');
  const failing = await t.throwsAsync(fetcher().fetchImage(url('/error.png'), 'customBackground'), { instanceOf: ImageFetchError });
  t.is(failing?.reason, 'http_status');
});

test('a refused or reset connection is unreachable, with no socket detail in the message', async (t) => {
  const port = await freePort();
  const refused = await t.throwsAsync(fetcher().fetchImage(`http://127.0.0.1:${port}/a.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(refused?.reason, 'unreachable');
  t.is(refused?.message, 'customBackground: the image server 127.0.0.1 could not be reached');

  const raw = await startRawServer((socket) => socket.destroy());
  t.teardown(() => raw.close());
  const reset = await t.throwsAsync(fetcher().fetchImage(`${raw.origin}/a.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(reset?.reason, 'unreachable');
});

test('a server that accepts and never answers is cut at the deadline', async (t) => {
  const raw = await startRawServer(() => undefined);
  t.teardown(() => raw.close());
  const error = await t.throwsAsync(fetcher({ deadlineMs: 300 }).fetchImage(`${raw.origin}/a.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'timeout');
  t.is(raw.connections(), 1);
});

test('a deadline shorter than DNS is a timeout, not a hang', async (t) => {
  const neverAnswers = (() => undefined) as unknown as NonNullable<Parameters<typeof createImageFetcher>[0]>['lookup'];
  const error = await t.throwsAsync(fetcher({ deadlineMs: 200, lookup: neverAnswers }).fetchImage('http://slow-dns.test/a.png', 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'timeout');
});
