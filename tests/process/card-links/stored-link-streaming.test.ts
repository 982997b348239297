import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { cardUrl } from '@utility-api/client';
import { createDiskMediaStore, createS3MediaStore, type MediaObject, type MediaStore } from '@utility-api/media-store';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, startS3rver, type RunningS3rver } from '../../support/media-store/s3rver-server.ts';

/**
 * A signed link's stored card is streamed from the media store, disk or S3, with the headers a
 * buffered answer had (Content-Length, ETag, caching), HEAD and If-None-Match included. The stored
 * card is replaced behind the gateway's back by a large image (far past any card), the way a store
 * holds it, so what is served is known byte for byte. HEAD and a matching If-None-Match read only
 * the stored object's metadata. On S3 the object's body is held half-sent
 * until the client has the answer's headers and first bytes: a gateway that read the image whole
 * before answering would never send them (and its S3 read would time out into a 503).
 */
const USER_ID = '302050872383242240';
const BUCKET = 'link-streaming';
/** 24 MiB: three times the largest image the renderers fetch, and far past any card they draw. */
const LARGE_IMAGE_BYTES = 24 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
/** What the held S3 answer sends before waiting for the client. */
const FIRST_PART_BYTES = 1024 * 1024;

let disk: TestGateway;
let s3Gateway: TestGateway;
let s3: RunningS3rver;

test.before(async () => {
  s3 = await startS3rver();
  disk = await startTestGateway({ render: true, env: { RENDER_WORKERS: '1' } });
  s3Gateway = await startTestGateway({ render: true, env: { RENDER_WORKERS: '1', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: S3RVER_ACCESS_KEY, S3_SECRET_KEY: S3RVER_SECRET_KEY, S3_BUCKET: BUCKET } });
});

test.after.always(async () => {
  await disk?.close();
  await s3Gateway?.close();
  await s3?.stop();
});

const largeImage = () => Buffer.concat([PNG_SIGNATURE, randomBytes(LARGE_IMAGE_BYTES - PNG_SIGNATURE.length)]);

/** A link's first fetch (drawn and stored), and the media key it stored the card under. */
async function drawnLink(t: ExecutionContext, gateway: TestGateway, tag: string) {
  const link = cardUrl({ baseUrl: gateway.url, apiKey: TEST_API_KEY, userId: USER_ID, card: { customTag: tag } });
  const first = await fetch(link);
  t.is(first.status, 200, await first.clone().text().catch(() => ''));
  t.is(first.headers.get('x-card-render'), 'new');
  const drawn = Buffer.from(await first.arrayBuffer());
  t.is(Number(first.headers.get('content-length')), drawn.length, 'the first fetch streams the card just drawn with its length');
  const mediaKey = /\/media\/([0-9a-f-]{36})\.png$/.exec(first.headers.get('content-location') ?? '')?.[1];
  if (mediaKey === undefined) throw new Error(`no media key in ${first.headers.get('content-location')}`);
  return { link, mediaKey };
}

/** Serving the replaced stored card: GET whole and exact, HEAD with the same headers, If-None-Match a 304. */
async function checkServed(t: ExecutionContext, link: string, bytes: Buffer, stored: MediaObject) {
  const served = await fetch(link);
  t.is(served.status, 200);
  t.is(served.headers.get('x-card-render'), 'reused', 'served from storage, not drawn');
  t.is(served.headers.get('content-type'), 'image/png');
  t.is(served.headers.get('content-length'), String(LARGE_IMAGE_BYTES));
  t.is(served.headers.get('etag'), stored.etag);
  t.is(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(served.headers.get('cross-origin-resource-policy'), 'cross-origin');
  t.truthy(served.headers.get('x-alt-text'));
  const body = Buffer.from(await served.arrayBuffer());
  t.is(body.length, LARGE_IMAGE_BYTES);
  t.true(body.equals(bytes), 'every byte of the stored image');

  const head = await fetch(link, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(LARGE_IMAGE_BYTES));
  t.is(head.headers.get('etag'), stored.etag);
  t.is(head.headers.get('content-type'), 'image/png');
  t.is((await head.arrayBuffer()).byteLength, 0);

  const notModified = await fetch(link, { headers: { 'if-none-match': stored.etag } });
  t.is(notModified.status, 304);
  t.is(notModified.headers.get('etag'), stored.etag);
  t.is((await notModified.arrayBuffer()).byteLength, 0);
  const otherTag = await fetch(link, { headers: { 'if-none-match': '"another"' } });
  t.is(otherTag.status, 200, 'a tag that does not match is the image');
  t.is((await otherTag.arrayBuffer()).byteLength, LARGE_IMAGE_BYTES);
}

async function withStore<T>(store: MediaStore, use: (store: MediaStore) => Promise<T>): Promise<T> {
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

test.serial('disk: a large stored link image is served whole, with its length and ETag; HEAD and If-None-Match answer from its metadata', async (t) => {
  const { link, mediaKey } = await drawnLink(t, disk, 'disk streaming');
  const bytes = largeImage();
  // The gateway's own folder, written as the renderers write it (atomically, under the same name).
  const stored = await withStore(await createDiskMediaStore({ directory: disk.mediaDir, ttlMs: 86_400_000 }), (store) => store.put(mediaKey, bytes, 'png'));
  await checkServed(t, link, bytes, stored);
});

test.serial('S3: a large stored link image is streamed: the client has the headers and first bytes while S3 still holds the rest', async (t) => {
  const { link, mediaKey } = await drawnLink(t, s3Gateway, 's3 streaming');
  const bytes = largeImage();
  const stored = await withStore(
    await createS3MediaStore({ endpoint: s3.endpoint, accessKey: S3RVER_ACCESS_KEY, secretKey: S3RVER_SECRET_KEY, bucket: BUCKET, ttlDays: 30 }),
    (store) => store.put(mediaKey, bytes, 'png'),
  );
  await checkServed(t, link, bytes, stored);

  // HEAD and a matching If-None-Match read the object's metadata only: S3 is asked for no body.
  let objectReads = 0;
  const stopCounting = s3.intercept((request) => {
    if (request.method === 'GET' && (request.url ?? '').startsWith(`/${BUCKET}/${mediaKey}.png`)) objectReads += 1;
    return false;
  });
  try {
    const head = await fetch(link, { method: 'HEAD' });
    t.is(head.headers.get('content-length'), String(LARGE_IMAGE_BYTES));
    t.is((await fetch(link, { headers: { 'if-none-match': stored.etag } })).status, 304);
    t.is(objectReads, 0);
    await (await fetch(link)).arrayBuffer();
    t.is(objectReads, 1, 'a GET reads it, once');
  } finally {
    stopCounting();
  }

  // The object's GET answered by the test: its first part, then the rest only once the client has read from the gateway.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  const stopIntercepting = s3.intercept((request, response) => {
    if (request.method !== 'GET' || !(request.url ?? '').startsWith(`/${BUCKET}/${mediaKey}.png`)) return false;
    held += 1;
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length), ETag: stored.etag, 'Last-Modified': new Date().toUTCString() });
    response.write(bytes.subarray(0, FIRST_PART_BYTES));
    void released.then(() => response.end(bytes.subarray(FIRST_PART_BYTES)));
    return true;
  });
  try {
    const answer = await fetch(link);
    t.is(answer.status, 200, 'the answer started while S3 held the rest of the image');
    t.is(answer.headers.get('content-length'), String(LARGE_IMAGE_BYTES));
    const reader = answer.body!.getReader();
    const chunks: Buffer[] = [];
    let received = 0;
    while (received === 0) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      received += value.length;
    }
    t.true(received > 0 && received <= FIRST_PART_BYTES, `first bytes before the rest was sent (${received})`);
    t.is(held, 1, 'read from S3 through the held answer');
    release();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value));
    t.true(Buffer.concat(chunks).equals(bytes), 'and then every byte');
  } finally {
    release();
    stopIntercepting();
  }
});
