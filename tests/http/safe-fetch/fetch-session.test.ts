/**
 * One card's fetches (a FetchSession): each distinct URL fetched once and shared between the
 * fields that name it, and one byte budget for all of them, charged while bodies stream.
 */
import { type ServerResponse } from 'node:http';
import { createFetchSession, createImageFetcher, ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { noisePng, pngImage } from '../../fixtures/images.ts';
import { type RecordingServer, startRecordingServer } from '../../support/safe-fetch/recording-server.ts';

const KiB = 1024;
const BADGE = pngImage(24, 24);
/** Four real images of about 300 KB each (150x500 pixels, stored uncompressed). */
const PHOTOS = [1, 2, 3, 4].map((seed) => noisePng(150, 500, seed));
const PHOTO_BYTES = PHOTOS[0]!.length;
let server: RecordingServer;
let endlessClosed = false;

/** Writes `bytes` in 16 KiB pieces, honouring backpressure, so that a refusal cuts a body short. */
function stream(response: ServerResponse, bytes: Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'Content-Type': 'image/png', ...headers });
  let at = 0;
  const pump = () => {
    while (at < bytes.length && !response.destroyed) {
      const piece = bytes.subarray(at, at + 16 * KiB);
      at += piece.length;
      if (!response.write(piece)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

test.before(async () => {
  server = await startRecordingServer();
  server.route('/badge.png', (_request, response) => void response.writeHead(200).end(BADGE));
  PHOTOS.forEach((photo, index) => server.route(`/photo-${index}.png`, (_request, response) => stream(response, photo)));
  server.route('/announced.png', (_request, response) => stream(response, PHOTOS[0]!, { 'Content-Length': String(PHOTO_BYTES) }));
  // A redirect that carries a body of its own, which must not be read or charged.
  server.route('/moved.png', (_request, response) => void response.writeHead(302, { Location: '/badge.png' }).end(Buffer.alloc(200 * KiB, 0x41)));
  server.route('/missing.png', (_request, response) => void response.writeHead(404).end('gone'));
  // A real PNG's first bytes, then one byte a second forever.
  server.route('/endless.png', (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'image/png' });
    response.write(BADGE.subarray(0, 64));
    const timer = setInterval(() => response.write(Buffer.alloc(1)), 1000);
    response.on('close', () => {
      clearInterval(timer);
      endlessClosed = true;
    });
  });
});

test.after.always(async () => {
  await server.close();
});

const fetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'] });
const requestsFor = (path: string) => server.requests.filter((request) => request.path === path).length;

test.serial('a URL named by several fields is fetched once, its bytes shared', async (t) => {
  server.requests.length = 0;
  const session = createFetchSession(fetcher, 1024 * KiB);
  const url = `${server.origin}/badge.png`;
  // Eight badges, some spelled differently: the parser's normal form and the unsent fragment.
  const spellings = [url, url, `${url}#second`, `HTTP://127.0.0.1:${server.port}/badge.png`, url, url, url, `${server.origin}/./badge.png`];
  const images = await Promise.all(spellings.map((spelling, index) => session.fetchImage(spelling, `customBadges.${index}`)));
  t.is(requestsFor('/badge.png'), 1);
  for (const image of images) t.true(image.bytes.equals(BADGE));
  t.is(session.budget.usedBytes, BADGE.length, 'charged once');
});

test.serial('a shared failure names the field that asked first', async (t) => {
  server.requests.length = 0;
  const session = createFetchSession(fetcher, 1024 * KiB);
  const url = `${server.origin}/missing.png`;
  const first = session.fetchImage(url, 'customBackground');
  const second = session.fetchImage(url, 'customBadges.3');
  const errors = await Promise.all([t.throwsAsync(first, { instanceOf: ImageFetchError }), t.throwsAsync(second, { instanceOf: ImageFetchError })]);
  for (const error of errors) t.is(error?.message, 'customBackground: the image server answered HTTP 404');
  t.is(requestsFor('/missing.png'), 1);
});

test.serial('the images together may not read more than the budget: the fetch that crosses it is refused mid-stream', async (t) => {
  const budget = Math.floor(2.5 * PHOTO_BYTES);
  const session = createFetchSession(fetcher, budget);
  const fields = PHOTOS.map((_photo, index) => `customBadges.${index}`);
  const outcomes = await Promise.allSettled(PHOTOS.map((_photo, index) => session.fetchImage(`${server.origin}/photo-${index}.png`, fields[index]!)));
  const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  // Four images of which two and a half fit: at least two are refused, whatever the interleaving.
  t.true(refusals.length >= 2, `${refusals.length} refused`);
  for (const error of refusals) {
    t.true(error instanceof ImageFetchError);
    t.is((error as ImageFetchError).reason, 'over_card_budget');
    t.regex((error as ImageFetchError).message, /^customBadges\.[0-3]: the card's images together exceed [\d,]+ bytes$/);
  }
  // Charged as the bytes arrived: never more than the budget was read.
  t.true(session.budget.usedBytes <= budget, `${session.budget.usedBytes} of ${budget}`);
});

test.serial('a Content-Length beyond what is left of the budget is refused before its body is read', async (t) => {
  const session = createFetchSession(fetcher, PHOTO_BYTES - 1);
  const error = await t.throwsAsync(session.fetchImage(`${server.origin}/announced.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'over_card_budget');
  t.is(session.budget.usedBytes, 0);
});

test.serial('redirects count only by the bodies read: none of theirs', async (t) => {
  const session = createFetchSession(fetcher, 1024 * KiB);
  const image = await session.fetchImage(`${server.origin}/moved.png`, 'customBackground');
  t.true(image.bytes.equals(BADGE));
  t.is(session.budget.usedBytes, BADGE.length);
});

test.serial('cancel() stops the fetches still running, and their connections', async (t) => {
  const session = createFetchSession(fetcher, 1024 * KiB);
  const endless = session.fetchImage(`${server.origin}/endless.png`, 'customBackground');
  await t.throwsAsync(session.fetchImage(`${server.origin}/missing.png`, 'customBadges.0'), { instanceOf: ImageFetchError });
  // The card has failed; its background is no longer wanted.
  session.cancel();
  const error = await t.throwsAsync(endless, { instanceOf: ImageFetchError });
  t.is(error?.reason, 'cancelled');
  t.is(error?.message, 'customBackground: the fetch was called off');
  for (let waited = 0; waited < 2000 && !endlessClosed; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(endlessClosed, 'the server saw the connection closed');
  const late = await t.throwsAsync(session.fetchImage(`${server.origin}/badge.png`, 'customBadges.1'), { instanceOf: ImageFetchError });
  t.is(late?.reason, 'cancelled');
});

test('the budget message names whole mebibytes as such', async (t) => {
  const session = createFetchSession(fetcher, 24 * 1024 * KiB);
  t.is(session.budget.exceeded('customBadges.4').message, "customBadges.4: the card's images together exceed 24 MiB");
});
