/**
 * The per-card fetch budget through a real embedded gateway: a URL named by several fields is
 * fetched once, and nine distinct ~6 MB images cannot make one card read more than
 * FETCH_CARD_BUDGET_BYTES (24 MiB by default, left at its default here).
 */
import type { ServerResponse } from 'node:http';
import test from 'ava';
import { noisePng, solidPng } from '../../fixtures/images.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { png, startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';

const API_KEY = 'budget-key-0123456789abcdef';
const MiB = 1024 * 1024;
/** Nine different real images of about 6 MB each (1224x1224, stored uncompressed): 54 MB together. */
const LARGE = Array.from({ length: 9 }, (_unused, index) => noisePng(1224, 1224, index + 1));
const LARGE_BYTES = LARGE[0]!.length;
let gateway: GatewayProcess;
let images: ImageServer;
/** Body bytes the image server handed to its sockets, all large images together. */
let largeBytesSent = 0;

/** Streams `bytes` in 64 KiB pieces, honouring backpressure, so a client that gives up stops it. */
function streamed(bytes: Buffer) {
  return (_request: unknown, _respond: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    let at = 0;
    const pump = () => {
      while (at < bytes.length && !response.destroyed) {
        const piece = bytes.subarray(at, at + 64 * 1024);
        at += piece.length;
        largeBytesSent += piece.length;
        if (!response.write(piece)) return void response.once('drain', pump);
      }
      if (!response.destroyed) response.end();
    };
    pump();
  };
}

test.before(async () => {
  images = await startImageServer({
    '/badge.png': png(solidPng(64, 64, '#22aa55')),
    ...Object.fromEntries(LARGE.map((bytes, index) => [`/large-${index}.png`, streamed(bytes)])),
  });
  gateway = await startGatewayProcess({
    env: {
      API_KEYS: API_KEY,
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // 54 MB over loopback on a busy test machine: the budget, not the 5 s deadline, must end it.
      FETCH_TIMEOUT_MS: '30000',
    },
  });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

async function postCard(body: unknown) {
  const response = await gateway.postCard(USER_ID, body);
  return { status: response.status, body: (await response.json()) as any };
}

test.serial('the same badge URL eight times is one request to the image server, and the card is made', async (t) => {
  const badge = `${images.url}/badge.png`;
  const seen = images.requests.filter((path) => path === '/badge.png').length;
  const reply = await postCard({ customBadges: Array.from({ length: 8 }, () => badge), customTag: 'eight of the same' });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(images.requests.filter((path) => path === '/badge.png').length - seen, 1);
});

test.serial('nine distinct ~6 MB images: 422 naming the field that crossed the 24 MiB budget, and the renderer read no more than that', async (t) => {
  t.true(LARGE_BYTES > 5.9e6 && LARGE_BYTES < 6.1e6 && LARGE_BYTES < 8 * MiB, `${LARGE_BYTES} bytes each`);
  const fields = ['customBackground', ...Array.from({ length: 8 }, (_unused, index) => `customBadges.${index}`)];
  const reply = await postCard({
    customBackground: `${images.url}/large-0.png`,
    customBadges: LARGE.slice(1).map((_bytes, index) => `${images.url}/large-${index + 1}.png`),
  });
  t.is(reply.status, 422, JSON.stringify(reply.body));
  t.is(reply.body.error.code, 'image_unusable');
  const [field, detail] = (reply.body.error.message as string).split(': ');
  t.true(fields.includes(field!), reply.body.error.message);
  t.is(detail, "the card's images together exceed 24 MiB");
  // Each URL asked for once at most; the card's fetches stopped without reading every body.
  for (let index = 0; index < LARGE.length; index += 1) t.true(images.requests.filter((path) => path === `/large-${index}.png`).length <= 1);
  // What the renderer read, from its own log line: never more than the budget. The line may reach
  // this process's pipe just after the answer did.
  await gateway.process.waitFor(/over_card_budget.*"card render failed"/, 10_000);
  const failed = gateway.process
    .output()
    .split('\n')
    .filter((line) => line.includes('"card render failed"') && line.includes('over_card_budget'))
    .map((line) => JSON.parse(line) as { imageBytes: number });
  t.is(failed.length, 1);
  t.true(failed[0]!.imageBytes <= 24 * MiB, `${failed[0]!.imageBytes} bytes read`);
  // The server's side is not deterministic: besides the bytes read, every connection had socket
  // buffers full (a few MiB each on loopback) when it was closed. Logged for the record.
  t.log(`read ${(failed[0]!.imageBytes / MiB).toFixed(1)} MiB; the server got ${(largeBytesSent / MiB).toFixed(1)} MiB of ${((LARGE.length * LARGE_BYTES) / MiB).toFixed(1)} MiB into its sockets`);
});
