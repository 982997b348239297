import test from 'ava';
import sharp from 'sharp';
import { BLUE, buildAnimatedWebp, buildGif, encodeWebp, RED, solidCanvas, solidGifFrame } from '../../fixtures/images.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { SUITE_ENV, USER_ID } from '../../support/pipeline/profile-image-suite.ts';

/**
 * `animated`, `frames` and `X-Card-Frames` describe the file the card is stored as. The encoders
 * (libwebp's and cgif) merge identical consecutive frames into one longer frame, so a source whose
 * frames are all alike gives a one-frame file: the still card. A source of runs (four red frames,
 * four blue) gives fewer frames than drawn: its frames are resized as one strip, so a frame next to
 * a change differs at its edge and is kept, but the frames inside a run are merged.
 */
const SIDE = 64;
let gateway: TestGateway;
let images: ImageServer;

test.before(async () => {
  const red = await encodeWebp(solidCanvas(SIDE, SIDE, RED), { lossless: true });
  const blue = await encodeWebp(solidCanvas(SIDE, SIDE, BLUE), { lossless: true });
  const frame = (still: Buffer) => ({ still, width: SIDE, height: SIDE });
  const sources: Record<string, { type: string; bytes: Buffer }> = {
    '/alike.webp': { type: 'image/webp', bytes: buildAnimatedWebp(SIDE, SIDE, Array.from({ length: 20 }, () => frame(red))) },
    '/runs.webp': { type: 'image/webp', bytes: buildAnimatedWebp(SIDE, SIDE, [...Array.from({ length: 4 }, () => frame(red)), ...Array.from({ length: 4 }, () => frame(blue))]) },
    '/alike.gif': { type: 'image/gif', bytes: buildGif({ width: SIDE, height: SIDE, palette: [[255, 0, 0], [0, 0, 255]], loop: true, frames: Array.from({ length: 20 }, () => solidGifFrame(SIDE, SIDE, 0)) }) },
  };
  images = await startImageServer(Object.fromEntries(Object.entries(sources).map(([path, { type, bytes }]) => [path, (_request, respond) => respond(200, type, bytes)])));
  gateway = await startTestGateway({ render: true, env: { ...SUITE_ENV, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
});

test.after.always(async () => {
  await gateway?.close();
  await images?.close();
});

/** Frames of an image file as libvips reads them (a still image has no `pages`). */
async function storedFrames(bytes: Buffer): Promise<number> {
  return (await sharp(bytes).metadata()).pages ?? 1;
}

async function post(body: object, accept?: string) {
  return gateway.request(`/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
    body: JSON.stringify(body),
  });
}

const cases = [
  { source: '/alike.webp', format: undefined, frames: 1 },
  { source: '/alike.webp', format: 'gif', frames: 1 },
  { source: '/alike.gif', format: undefined, frames: 1 },
  { source: '/runs.webp', format: undefined, frames: undefined },
  { source: '/runs.webp', format: 'gif', frames: undefined },
] as const;

// One card at a time: the embedded pool draws one animated card at a time (its memory budget), so
// five sent together would wait behind each other and the last could run out of its deadline on a
// busy machine; each card's deadline starts when it is sent.
for (const { source, format, frames } of cases) {
  test.serial(`${source} as the background of an animated ${format ?? 'webp'} card: the answer says the ${frames ?? 'several'} frame(s) the stored file has`, async (t) => {
    const body = { animated: true, customBackground: `${images.url}${source}`, customTag: `frames ${source} ${format}`, ...(format === undefined ? {} : { format }) };
    const response = await post(body);
    const answer = (await response.json()) as { url: string; animated: boolean; frames: number };
    t.is(response.status, 200, JSON.stringify(answer));
    const stored = Buffer.from(await (await fetch(answer.url)).arrayBuffer());
    const storedCount = await storedFrames(stored);
    if (frames === undefined) t.true(storedCount > 1 && storedCount < 8, `${storedCount} of 8 frames drawn`);
    else t.is(storedCount, frames, 'the encoder kept one frame');
    t.is(answer.frames, storedCount);
    t.is(answer.animated, storedCount > 1);
    t.is(response.headers.get('x-card-frames'), String(storedCount));
    if (storedCount === 1) {
      // Nothing moves in the file: the still card, as for a still source (PNG unless format says otherwise).
      t.regex(answer.url, format === undefined ? /\.png$/ : new RegExp(`\\.${format}$`));
    }
    // The image answer describes its own bytes the same way.
    const image = await post(body, format === 'gif' ? 'image/gif' : 'image/*');
    t.is(image.status, 200);
    const bytes = Buffer.from(await image.arrayBuffer());
    t.is(image.headers.get('x-card-frames'), String(await storedFrames(bytes)));
  });
}
