/**
 * The hostile-image cases of `POST /v1/profile-image`, identical in both run modes: each test file
 * starts its own topology and calls {@link registerHostileImageTests}.
 *
 * Every case must end in one of two answers: a 200 whose card comes back from /media and decodes
 * (drawn without the bomb), or a 422 `image_unusable` naming the bomb's field; the many-frame
 * animations must be drawn (200), from their first frame or, animated, from the frames the card
 * plays. Never a 5xx or a 504, while the RSS of every watched process tree stays under {@link MEMORY_CEILING_BYTES}.
 */
import { request as httpRequest } from 'node:http';
import type { ExecutionContext, TestFn } from 'ava';
import sharp from 'sharp';
import { manyFrameGif, manyFrameWebp, solidPng } from '../../fixtures/images.ts';
import { loadContract, type OpenApiContract } from '../../helpers/openapi-contract.ts';
import { startImageServer, type ImageServer } from '../pipeline/image-server.ts';
import { decodePng } from '../pipeline/png-pixels.ts';
import { imageRoutes, USER_ID } from '../pipeline/profile-image-suite.ts';
import {
  BOMB_SIZES,
  CHUNK_PLACEMENTS,
  gifExtensionBomb,
  jpegAppBomb,
  memoize,
  PNG_BOMB_KINDS,
  pngBomb,
  progressiveJpeg,
  webpMetadataBomb,
} from './bombs.ts';
import { GIB, mebibytes, sampleProcessTrees, type WatchedProcess } from './process-memory.ts';

/** No process tree (the embedded gateway, a renderer, the distributed gateway) may exceed this. */
export const MEMORY_CEILING_BYTES = GIB;

export interface HostileTarget {
  url: string;
  apiKey: string;
  images: ImageServer;
  /** The gateway's own render deadline (RENDER_TIMEOUT_MS as the gateway parsed it). */
  renderTimeoutMs: number;
  /** The main processes whose trees are sampled; each must still be running after every case. */
  processes(): (WatchedProcess & { running(): boolean })[];
}

type ImageBody = { customBackground?: string; customBadges?: string[]; animated?: boolean };

interface HostileCase {
  name: string;
  /** Paths on the image server and how their bytes are made (once per test file). */
  images: Record<string, { type: string; build: () => Promise<Buffer> }>;
  body(imagesUrl: string): ImageBody;
  /** The fields a 422 may name; none when the card must be drawn (200). */
  fields: string[];
  /** Whether a 200 must be an animated card (`animated: true` in the answer, several frames). */
  moving?: boolean;
  /** Further checks once the answer is in. */
  verify?(t: ExecutionContext, images: ImageServer): void;
}

const BADGE_FIELDS = Array.from({ length: 8 }, (_, index) => `customBadges.${index}`);
const PNG = 'image/png';

function hostileCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const kind of PNG_BOMB_KINDS) {
    for (const placement of CHUNK_PLACEMENTS) {
      const path = `/png/${kind}-${placement}.png`;
      const images = { [path]: { type: PNG, build: memoize(() => pngBomb(kind, placement)) } };
      cases.push({ name: `PNG ${kind} bomb ${placement} as customBackground`, images, body: (url) => ({ customBackground: `${url}${path}` }), fields: ['customBackground'] });
      // A good badge first, so the 422 must name the bomb's own index.
      cases.push({ name: `PNG ${kind} bomb ${placement} as a badge`, images, body: (url) => ({ customBadges: [`${url}/blue.png`, `${url}${path}`] }), fields: ['customBadges.1'] });
    }
  }

  const worst = Array.from({ length: 9 }, (_, index) => `/png/zTXt-worst-${index}.png`);
  cases.push({
    name: 'background + 8 badges, all distinct zTXt bombs',
    images: Object.fromEntries(worst.map((path, index) => [path, { type: PNG, build: memoize(() => pngBomb('zTXt', CHUNK_PLACEMENTS[index % 2]!, BOMB_SIZES, index + 1)) }])),
    body: (url) => ({ customBackground: `${url}${worst[0]}`, customBadges: worst.slice(1).map((path) => `${url}${path}`) }),
    fields: ['customBackground', ...BADGE_FIELDS],
  });

  cases.push({
    name: 'JPEG with ~7.8 MB of APP1/APP2 segments as customBackground',
    images: { '/jpeg/app-segments.jpg': { type: 'image/jpeg', build: memoize(() => jpegAppBomb()) } },
    body: (url) => ({ customBackground: `${url}/jpeg/app-segments.jpg` }),
    fields: ['customBackground'],
  });
  cases.push({
    name: 'WebP with huge EXIF, XMP and ICCP chunks as a badge',
    images: { '/webp/metadata.webp': { type: 'image/webp', build: memoize(() => webpMetadataBomb()) } },
    body: (url) => ({ customBadges: [`${url}/webp/metadata.webp`] }),
    fields: ['customBadges.0'],
  });
  cases.push({
    name: 'GIF behind ~7 MB of comment and application extensions as a badge',
    images: { '/gif/extensions.gif': { type: 'image/gif', build: memoize(() => gifExtensionBomb()) } },
    body: (url) => ({ customBadges: [`${url}/blue.png`, `${url}/gif/extensions.gif`] }),
    fields: ['customBadges.1'],
  });
  cases.push({
    name: `${BOMB_SIZES.progressiveScans}-scan progressive JPEG of ${BOMB_SIZES.progressiveSide}x${BOMB_SIZES.progressiveSide} as customBackground`,
    images: { '/jpeg/progressive.jpg': { type: 'image/jpeg', build: memoize(() => progressiveJpeg()) } },
    body: (url) => ({ customBackground: `${url}/jpeg/progressive.jpg` }),
    fields: ['customBackground'],
  });

  const megapixels = Array.from({ length: 9 }, (_, index) => `/mp/${index}.png`);
  const side = BOMB_SIZES.megapixelSide;
  cases.push({
    name: `9 distinct ${side}x${side} images in one card`,
    images: Object.fromEntries(megapixels.map((path, index) => [path, { type: PNG, build: memoize(() => solidPng(side, side, `hsl(${index * 40}, 70%, 50%)`)) }])),
    body: (url) => ({ customBackground: `${url}${megapixels[0]}`, customBadges: megapixels.slice(1).map((path) => `${url}${path}`) }),
    fields: ['customBackground', ...BADGE_FIELDS],
  });

  // Drawn from the first frame (still) or the frames the card plays (animated): never refused.
  const animations = [
    ...BOMB_SIZES.webpFrames.map((frames) => ({ label: `${frames.toLocaleString('en-US')}-frame WebP`, path: `/webp/frames-${frames}.webp`, type: 'image/webp', build: memoize(() => manyFrameWebp(frames)) })),
    { label: `${BOMB_SIZES.gifFrames.toLocaleString('en-US')}-frame GIF`, path: `/gif/frames-${BOMB_SIZES.gifFrames}.gif`, type: 'image/gif', build: memoize(() => manyFrameGif(BOMB_SIZES.gifFrames)) },
  ];
  for (const { label, path, type, build } of animations) {
    const images = { [path]: { type, build } };
    for (const animated of [false, true]) {
      const mode = animated ? 'animated' : 'still';
      cases.push({ name: `${label} as customBackground, ${mode} card`, images, body: (url) => ({ customBackground: `${url}${path}`, animated }), fields: [], moving: animated });
      cases.push({ name: `${label} as a badge, ${mode} card`, images, body: (url) => ({ customBadges: [`${url}${path}`], animated }), fields: [], moving: false });
    }
  }

  const same = '/png/same-badge.png';
  cases.push({
    name: 'the same zTXt bomb badge URL 8 times is fetched once',
    images: { [same]: { type: PNG, build: memoize(() => pngBomb('zTXt', 'after-idat', BOMB_SIZES, 200)) } },
    body: (url) => ({ customBadges: Array.from({ length: 8 }, () => `${url}${same}`) }),
    fields: BADGE_FIELDS,
    verify: (t, images) => t.is(images.requests.filter((path) => path === same).length, 1, `requests for ${same}`),
  });
  return cases;
}

/** One list per test file, so each bomb is built once however many routes and tests use it. */
const HOSTILE_CASES = hostileCases();

/** The loopback image server of a hostile suite: every case's bombs plus the pipeline's plain images. */
export async function startHostileImageServer(): Promise<ImageServer> {
  const routes: Parameters<typeof startImageServer>[0] = imageRoutes();
  for (const hostile of HOSTILE_CASES) {
    for (const [path, image] of Object.entries(hostile.images)) {
      routes[path] = (_request, respond) => void image.build().then((bytes) => respond(200, image.type, bytes));
    }
  }
  return startImageServer(routes);
}

/**
 * One HTTP exchange on a fresh connection (`agent: false`): a kept-alive socket could be closed by
 * the gateway's keep-alive timeout just as a request goes out, while the next case builds its bombs.
 */
function exchange(url: string, options: { method: string; headers?: Record<string, string | number>; body?: Buffer }): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method, headers: options.headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

async function post(target: HostileTarget, body: ImageBody & { customTag: string }): Promise<{ status: number; body: any }> {
  const payload = Buffer.from(JSON.stringify(body));
  const headers = { authorization: target.apiKey, 'content-type': 'application/json', 'content-length': payload.length };
  const { status, bytes } = await exchange(`${target.url}/v1/profile-image?userId=${USER_ID}`, { method: 'POST', headers, body: payload });
  try {
    return { status, body: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { status, body: { unparsed: bytes.toString('utf8', 0, 200) } };
  }
}

/**
 * A 200 with a card that decodes, or a 422 `image_unusable` naming one of `fields` (with no
 * fields, only the 200 passes); anything else fails. `moving`: the 200 must be an animated card.
 */
async function assertCardOrRefusal(t: ExecutionContext, contract: OpenApiContract, reply: { status: number; body: any }, fields: string[], moving: boolean | undefined) {
  const shown = JSON.stringify(reply.body).slice(0, 500);
  t.not(reply.status, 504, `answered before the render deadline: ${shown}`);
  t.true(reply.status < 500, `never a 5xx: ${reply.status} ${shown}`);
  if (fields.length === 0) t.is(reply.status, 200, `the card is drawn: ${shown}`);
  else t.true(reply.status === 200 || reply.status === 422, `200 or 422, got ${reply.status} ${shown}`);
  t.deepEqual(contract.check('/v1/profile-image', 'POST', reply.status, reply.body), [], 'the answer matches the OpenAPI document');
  if (reply.status === 200) {
    const media = await exchange(reply.body.url, { method: 'GET' });
    t.is(media.status, 200);
    if (moving !== undefined) t.is(reply.body.animated === true, moving, `animated: ${reply.body.animated}, frames: ${reply.body.frames}`);
    if (reply.body.animated === true) {
      const card = await sharp(media.bytes, { animated: true }).metadata();
      t.deepEqual([card.width, card.pageHeight], [900, 300], 'the animated card decodes');
      // Not `frames`: identical frames may be merged when stored (issue 21); red and blue remain.
      t.true((card.pages ?? 1) > 1, `${card.pages} frames stored`);
    } else {
      const pixels = decodePng(media.bytes);
      t.deepEqual([pixels.width, pixels.height], [900, 300], 'the card decodes');
    }
    t.log(`answer: 200, card ${reply.body.url.split('/').pop()}${reply.body.animated ? ` (${reply.body.frames} frames)` : ''}`);
  } else if (reply.status === 422) {
    t.is(reply.body.error?.code, 'image_unusable', shown);
    const named = (reply.body.error?.details ?? []).map((detail: { field: string }) => detail.field);
    t.true(
      named.some((field: string) => fields.includes(field)),
      `422 names ${named.join(', ') || 'no field'}; expected one of ${fields.join(', ')}`,
    );
    t.log(`answer: 422 ${named.join(', ')}: ${reply.body.error?.message}`);
  }
}

export function registerHostileImageTests(test: TestFn, target: () => HostileTarget, mode: string): void {
  let contract: OpenApiContract | undefined;
  HOSTILE_CASES.forEach((hostile, index) => {
    test.serial(`${mode}: ${hostile.name}`, async (t) => {
      const current = target();
      // The answer must come before the gateway's own deadline; the test allows that plus generating
      // the bombs, fetching the card and a wide margin.
      t.timeout(current.renderTimeoutMs * 3 + 60_000);
      contract ??= await loadContract(current.url);
      await Promise.all(Object.values(hostile.images).map(({ build }) => build()));

      const sampler = sampleProcessTrees(current.processes());
      const started = performance.now();
      const reply = await post(current, { ...hostile.body(current.images.url), customTag: `hostile ${mode} ${index}` }).catch((error: unknown) => error as Error);
      const peaks = sampler.stop();
      t.log(`answered in ${Math.round(performance.now() - started)} ms`);

      for (const peak of peaks) {
        t.log(`${peak.name}: peak tree RSS ${mebibytes(peak.peakTreeBytes)} (${peak.peakDescendants} child processes at most, ${peak.samples} samples), VmHWM during the case ${mebibytes(peak.highWaterBytes)}`);
      }
      if (reply instanceof Error) {
        t.fail(`no HTTP answer: ${reply.message}`);
      } else {
        await assertCardOrRefusal(t, contract, reply, hostile.fields, hostile.moving);
      }
      for (const peak of peaks) {
        t.true(peak.peakTreeBytes < MEMORY_CEILING_BYTES, `${peak.name} tree peaked at ${mebibytes(peak.peakTreeBytes)}, over ${mebibytes(MEMORY_CEILING_BYTES)}`);
        t.true(peak.highWaterBytes < MEMORY_CEILING_BYTES, `${peak.name} itself reached ${mebibytes(peak.highWaterBytes)} (VmHWM), over ${mebibytes(MEMORY_CEILING_BYTES)}`);
      }
      for (const process of current.processes()) t.true(process.running(), `${process.name} is still running`);
      hostile.verify?.(t, current.images);
    });
  });
}
