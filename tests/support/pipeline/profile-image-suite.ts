import { get } from 'node:http';
import { CARD_FONT_FAMILY_IDS, CARD_LAYOUTS, CARD_LIMITS } from '@utility-api/render-jobs';
import type { TestFn } from 'ava';
import sharp from 'sharp';
import { avifToPng, runWithInput, webpToPng } from '../../helpers/image-tools.ts';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { readinessOnceReady } from '../../helpers/processes.ts';
import { decodePng, isBluish, isReddish } from './png-pixels.ts';
import { png, startImageServer, type ImageServer } from './image-server.ts';
import { animatedImage, solidPng } from '../../fixtures/images.ts';

/** A well-formed user id whose timestamp (2084) lies in the future: no such id has been issued. */
const FUTURE_ID = ((1n << 63n) - 1n).toString();

/** The id Discord would issue right now: its timestamp is the present, which must never be refused. */
const idIssuedNow = () => ((BigInt(Date.now()) - 1_420_070_400_000n) << 22n).toString();

/** The card's avatar circle (packages/card layout: centre 136,150, radius 92): a square well inside it. */
const AVATAR_SQUARE = [106, 120, 60, 60] as const;

/** What the shared HTTP tests need from a running topology (embedded or distributed). */
export interface PipelineTarget {
  url: string;
  apiKey: string;
  images: ImageServer;
  /** How many times the card stored under this media key was drawn, from the renderers' own logs. */
  rendersOf(mediaKey: string): Promise<number>;
  /** The renderers' "card rendered" log lines of the card stored under this media key (its warnings are there). */
  renderLogOf(mediaKey: string): Promise<string[]>;
}

export const USER_ID = '302050872383242240';

/**
 * Settings every topology running the shared tests needs: the tests run side by side with one
 * key, more cards at once than CARDS_IN_FLIGHT_PER_KEY's default of 8 allows and more cards a
 * minute than RATE_LIMIT_PROFILE_IMAGE's default of 60 (both limits have their own tests in
 * tests/rate-limits).
 */
export const SUITE_ENV = { CARDS_IN_FLIGHT_PER_KEY: '100', RATE_LIMIT_PROFILE_IMAGE: '600/60s' } as const;

/** A second key the gateways accept beside the target's own (`API_KEYS` lists both). */
export const SECOND_API_KEY = 'pipeline-second-key-0123456789';

export function imageRoutes() {
  return {
    '/red.png': png(solidPng(1200, 400, '#ff0000')),
    '/blue.png': png(solidPng(64, 64, '#0000ff')),
    '/page.png': (_request: unknown, respond: (status: number, type: string, body: Buffer) => void) =>
      respond(200, 'image/png', Buffer.from('<!doctype html><html><body>not an image</body></html>')),
  };
}

/**
 * Animated backgrounds with known, uneven frame times: a card drawn over one must play the same
 * frames for the same times. Each frame is one solid colour, so no two frames are alike.
 */
export const ANIMATED_SOURCES = {
  gif: { path: '/moving.gif', type: 'image/gif', delaysMs: [80, 120, 80, 200], colors: ['#c0392b', '#27ae60', '#2980b9', '#f1c40f'] },
  webp: { path: '/moving.webp', type: 'image/webp', delaysMs: [100, 150, 100, 150, 250], colors: ['#8e44ad', '#16a085', '#d35400', '#2c3e50', '#e84393'] },
} as const;

export async function startPipelineImageServer(): Promise<ImageServer> {
  const routes: Parameters<typeof startImageServer>[0] = imageRoutes();
  for (const format of ['gif', 'webp'] as const) {
    const { path, type, delaysMs, colors } = ANIMATED_SOURCES[format];
    const bytes = await animatedImage(format, { width: 300, height: 100 }, colors, delaysMs);
    routes[path] = (_request, respond) => respond(200, type, bytes);
  }
  return startImageServer(routes);
}

/** Frame count and per-frame durations of an animated WebP, as libwebp's own `webpmux -info` reads them. */
export async function webpFrames(bytes: Buffer) {
  const { stdout } = await runWithInput('webpmux', ['-info', '-'], bytes);
  const count = Number(/Number of frames: (\d+)/.exec(stdout)?.[1] ?? 0);
  // `No.: width height alpha x_offset y_offset duration dispose blend image_size compression`
  const delaysMs = [...stdout.matchAll(/^\s*\d+:\s+\d+\s+\d+\s+\w+\s+\d+\s+\d+\s+(\d+)/gm)].map((match) => Number(match[1]));
  return { stdout, count, delaysMs, canvas: /Canvas size: (\d+ x \d+)/.exec(stdout)?.[1] };
}

/** Frame count and delays of a GIF, as `gifsicle --info` reads them (GIF delays are hundredths). */
async function gifFrames(bytes: Buffer) {
  const { stdout } = await runWithInput('gifsicle', ['--info'], bytes);
  const count = Number(/^\* <stdin> (\d+) images?$/m.exec(stdout)?.[1] ?? 0);
  const delaysMs = [...stdout.matchAll(/delay ([\d.]+)s/g)].map((match) => Math.round(Number(match[1]) * 1000));
  return { stdout, count, delaysMs, screen: /logical screen (\d+x\d+)/.exec(stdout)?.[1] };
}

async function post(target: PipelineTarget, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: target.apiKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** A POST whose answer may be image bytes: the raw bytes and headers. */
async function postForBytes(target: PipelineTarget, path: string, body: unknown, accept: string) {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: target.apiKey, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function fetchMedia(target: PipelineTarget, url: string) {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The HTTP behaviour of `POST /v1/profile-image` and `/media`, identical in both run modes: each
 * test file calls this with its own topology.
 */
export function registerProfileImageTests(test: TestFn, target: () => PipelineTarget, mode: string): void {
  test(`${mode}: 200 returns a URL whose PNG bytes come back from /media`, async (t) => {
    const current = target();
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customTag: `${mode} welcome`, presenceStatus: 'online' });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.success, true);
    t.is(reply.body.message, 'Image Created');
    t.deepEqual(reply.body.options, { customTag: `${mode} welcome`, presenceStatus: 'online' });
    t.is(reply.body.altText, `Profile card for User 2240 (${mode} welcome): online.`, 'the id-only profile is named after the last digits of the id, as the card draws it');
    t.regex(reply.body.url, new RegExp(`^${current.url}/media/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.png$`));
    const media = await fetchMedia(current, reply.body.url);
    t.is(media.status, 200);
    t.is(media.headers.get('content-type'), 'image/png');
    t.is(media.headers.get('x-content-type-options'), 'nosniff');
    t.regex(media.headers.get('cache-control') ?? '', /immutable/);
    t.truthy(media.headers.get('etag'));
    const pixels = decodePng(media.bytes);
    t.is(pixels.width, 900);
    t.is(pixels.height, 300);
  });

  test(`${mode}: 200, 400, 404 and 422 answers match the OpenAPI document`, async (t) => {
    const current = target();
    const contract = await loadContract(current.url);
    const cases: [string, string, unknown, number][] = [
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { customTag: 'contract' }, 200],
      ['/v1/profile-image/{userId}', `/v1/profile-image/${USER_ID}`, { customTag: 'contract' }, 200],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { layout: 'welcome', headline: 'Goodbye', message: 'contract' }, 200],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { customTag: 'contract', format: 'webp' }, 200],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { customTag: 'contract', animated: true }, 200],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { customBackground: `${current.images.url}${ANIMATED_SOURCES.webp.path}`, animated: true }, 200],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { animated: true, format: 'avif' }, 400],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { format: 'jpeg' }, 400],
      ['/v1/profile-image', `/v1/profile-image?userId=1`, {}, 400],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { layout: 'card' }, 400],
      ['/v1/profile-image/{userId}', `/v1/profile-image/${USER_ID}`, { backgroundBrightness: 500 }, 400],
      ['/v1/profile-image', `/v1/profile-image?userId=${USER_ID}`, { customBackground: `${current.images.url}/missing.png` }, 422],
    ];
    for (const [template, path, body, status] of cases) {
      const reply = await post(current, path, body);
      t.is(reply.status, status, `${path}: ${JSON.stringify(reply.body)}`);
      t.deepEqual(contract.check(template, 'POST', status, reply.body), [], `${path} ${status}`);
    }
  });

  test(`${mode}: /healthz, /readyz and /metrics answer without a key`, async (t) => {
    const current = target();
    const alive = await fetch(`${current.url}/healthz`);
    t.is(alive.status, 200);
    const readiness = await readinessOnceReady(`${current.url}/readyz`);
    t.is(readiness.status, 'ready');
    t.is(readiness.checks.storage, 'ok');
    await post(current, `/v1/profile-image?userId=${USER_ID}`, { customTag: 'metrics' });
    const metrics = await (await fetch(`${current.url}/metrics`)).text();
    t.regex(metrics, /http_request_duration_seconds_bucket\{[^}]*route="\/v1\/profile-image"[^}]*status="200"/);
    t.regex(metrics, /card_requests_total\{render="(new|reused)"\}/);
  });

  test(`${mode}: the user id may be a path segment`, async (t) => {
    const reply = await post(target(), `/v1/profile-image/${USER_ID}`, { customSubtitle: 'path form' });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.regex(reply.body.url, /\/media\/[0-9a-f-]{36}\.png$/);
  });

  test(`${mode}: /media answers HEAD, 304 for a matching ETag, and 404 JSON for unknown or malformed names`, async (t) => {
    const current = target();
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customTag: 'media headers' });
    const head = await fetch(reply.body.url, { method: 'HEAD' });
    t.is(head.status, 200);
    t.is(head.headers.get('content-type'), 'image/png');
    t.true(Number(head.headers.get('content-length')) > 1000);
    const etag = head.headers.get('etag')!;
    // fetch() adds `Cache-Control: no-cache` to conditional requests, so a plain client asks here.
    const cachedStatus = await new Promise<number | undefined>((resolve, reject) => {
      get(reply.body.url, { headers: { 'if-none-match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    t.is(cachedStatus, 304);
    for (const name of ['00000000-0000-4000-8000-000000000000.png', 'nope.png', '..%2F..%2Fetc%2Fpasswd', 'ABCDEF00-0000-4000-8000-000000000000.png', `${reply.body.url.split('/').pop()}.exe`]) {
      const response = await fetch(`${current.url}/media/${name}`);
      t.is(response.status, 404, name);
      t.is((await response.json() as any).error.code, 'not_found');
    }
  });

  test(`${mode}: bad input is a 400 naming the field`, async (t) => {
    const current = target();
    const cases: [string, unknown, string][] = [
      [`/v1/profile-image?userId=123`, {}, 'userId'],
      [`/v1/profile-image`, {}, 'userId'],
      [`/v1/profile-image/abc`, {}, 'userId'],
      [`/v1/profile-image?userId=${USER_ID}`, { usernameColor: 'red' }, 'usernameColor'],
      [`/v1/profile-image?userId=${USER_ID}`, { backgroundBrightness: 0 }, 'backgroundBrightness'],
      [`/v1/profile-image?userId=${USER_ID}`, { backgroundBrightness: 101 }, 'backgroundBrightness'],
      [`/v1/profile-image?userId=${USER_ID}`, { presenceStatus: 'busy' }, 'presenceStatus'],
      [`/v1/profile-image?userId=${USER_ID}`, { rankData: { currentXp: 1 } }, 'rankData.requiredXp'],
      [`/v1/profile-image?userId=${USER_ID}`, { customBackground: 'file:///etc/passwd' }, 'customBackground'],
      [`/v1/profile-image?userId=${USER_ID}`, { customBadges: Array.from({ length: 9 }, () => 'https://example.com/a.png') }, 'customBadges'],
      [`/v1/profile-image?userId=${USER_ID}`, { localDateType: 'xx-NOPE' }, 'localDateType'],
      [`/v1/profile-image?userId=${USER_ID}`, { usernamecolor: '#fff' }, 'usernamecolor'],
      [`/v1/profile-image?userId=${USER_ID}`, { layout: 'banner' }, 'layout'],
      [`/v1/profile-image?userId=${USER_ID}`, { layout: 'welcome', headline: 'x'.repeat(CARD_LIMITS.maxHeadlineLength + 1) }, 'headline'],
      [`/v1/profile-image?userId=${USER_ID}`, { layout: 'welcome', message: 7 }, 'message'],
      [`/v1/profile-image?userId=${USER_ID}`, { format: 'PNG' }, 'format'],
      [`/v1/profile-image?userId=${USER_ID}`, { format: 'jpeg', customTag: 'x' }, 'format'],
      // Ids whose timestamp lies in the future (2084), in both routes and as the server id.
      [`/v1/profile-image?userId=${FUTURE_ID}`, {}, 'userId'],
      [`/v1/profile-image/${FUTURE_ID}`, {}, 'userId'],
      [`/v1/profile-image?userId=${USER_ID}`, { guildId: FUTURE_ID }, 'guildId'],
      [`/v1/profile-image?userId=${USER_ID}`, { guildId: '12345' }, 'guildId'],
      [`/v1/profile-image?userId=${USER_ID}`, { guildId: 613425648 }, 'guildId'],
      [`/v1/profile-image?userId=${USER_ID}`, { customAvatar: 'file:///etc/passwd' }, 'customAvatar'],
      [`/v1/profile-image?userId=${USER_ID}`, { usernameColor: 16777216 }, 'usernameColor'],
      [`/v1/profile-image?userId=${USER_ID}`, { borderColor: -1 }, 'borderColor'],
      [`/v1/profile-image?userId=${USER_ID}`, { tagColor: 1.5 }, 'tagColor'],
      [`/v1/profile-image?userId=${USER_ID}`, { fontFamily: 'Comic Sans' }, 'fontFamily'],
      [`/v1/profile-image?userId=${USER_ID}`, { labels: { level: 'x'.repeat(CARD_LIMITS.maxLabelLength + 1) } }, 'labels.level'],
      [`/v1/profile-image?userId=${USER_ID}`, { labels: { levl: 'Niveau' } }, 'labels.levl'],
      [`/v1/profile-image?userId=${USER_ID}`, { labels: 'Niveau' }, 'labels'],
    ];
    for (const [path, body, field] of cases) {
      const reply = await post(current, path, body);
      t.is(reply.status, 400, `${path} ${JSON.stringify(body)}`);
      t.is(reply.body.error.code, 'invalid_request');
      t.true(
        reply.body.error.details.some((detail: { field: string }) => detail.field === field),
        `${field} in ${JSON.stringify(reply.body.error.details)}`,
      );
      // Each problem once: a malformed userId used to be reported by the pattern and again by the range check.
      const described = reply.body.error.details.map((detail: { field: string; message: string }) => `${detail.field}: ${detail.message}`);
      t.deepEqual(described, [...new Set(described)], `${path}: ${JSON.stringify(reply.body.error.details)}`);
    }
  });

  test(`${mode}: identical cards from two keys are two renders; each key's own repeat is reused`, async (t) => {
    const current = target();
    const body = { customTag: `two keys ${mode}` };
    const first = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    const other = await post({ ...current, apiKey: SECOND_API_KEY }, `/v1/profile-image?userId=${USER_ID}`, body);
    const again = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(first.status, 200);
    t.is(other.status, 200);
    t.is(first.headers.get('x-card-render'), 'new');
    // The other key learns nothing of the first key's card: it is drawn for it anew.
    t.is(other.headers.get('x-card-render'), 'new');
    t.is(again.headers.get('x-card-render'), 'reused');
    // The same card: the same stored image (its name comes from its bytes).
    t.is(other.body.url, first.body.url);
  });

  test(`${mode}: layout welcome draws a welcome card: another render than the profile card, headline above the name`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}/red.png`, backgroundBrightness: 100, headline: 'Goodbye', message: `We are now ${mode} members` };
    const welcome = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, layout: 'welcome' });
    t.is(welcome.status, 200, JSON.stringify(welcome.body));
    t.deepEqual(welcome.body.options, { ...body, layout: 'welcome' });
    const profile = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(profile.status, 200, JSON.stringify(profile.body));
    t.not(welcome.body.url, profile.body.url);
    const isWhite = (pixel: { r: number; g: number; b: number }) => pixel.r > 220 && pixel.g > 220 && pixel.b > 220;
    // The capital headline GOODBYE, centred in the text column above the name; the profile card
    // draws neither it nor the message (they are only drawn in the welcome layout).
    const welcomePixels = decodePng((await fetchMedia(current, welcome.body.url)).bytes);
    const profilePixels = decodePng((await fetchMedia(current, profile.body.url)).bytes);
    t.deepEqual([welcomePixels.width, welcomePixels.height], [900, 300]);
    // The headline band of the welcome layout v2 (a supporting title above the large name).
    t.true(welcomePixels.share(440, 60, 250, 40, isWhite) > 0.1, 'white headline letters');
    t.true(welcomePixels.share(20, 140, 10, 20, isReddish) > 0.9, 'the custom background still shows');
    t.true(profilePixels.share(440, 60, 250, 40, isWhite) < welcomePixels.share(440, 60, 250, 40, isWhite) / 2);

    const refused = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'Welcome' });
    t.is(refused.status, 400);
    t.deepEqual(refused.body.error.details, [{ in: 'body', field: 'layout', message: `must be one of ${CARD_LAYOUTS.join(', ')}` }]);
  });

  test(`${mode}: a future-dated id is refused with the future named; the id Discord would issue now is drawn`, async (t) => {
    const current = target();
    const future = await post(current, `/v1/profile-image/${FUTURE_ID}`, {});
    t.is(future.status, 400);
    t.deepEqual(future.body.error.details.map((detail: { in: string; field: string }) => `${detail.in}:${detail.field}`), ['path:userId']);
    t.regex(future.body.error.details[0].message, /future \(2084-/);
    const now = await post(current, `/v1/profile-image?userId=${idIssuedNow()}`, { customTag: `issued now ${mode}` });
    t.is(now.status, 200, JSON.stringify(now.body));
  });

  test(`${mode}: customAvatar from a loopback server is drawn in the avatar circle`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}/red.png`, backgroundBrightness: 100, customTag: `custom avatar ${mode}` };
    const withAvatar = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, customAvatar: `${current.images.url}/blue.png` });
    t.is(withAvatar.status, 200, JSON.stringify(withAvatar.body));
    t.is(withAvatar.body.options.customAvatar, `${current.images.url}/blue.png`);
    const drawn = decodePng((await fetchMedia(current, withAvatar.body.url)).bytes);
    t.true(drawn.share(...AVATAR_SQUARE, isBluish) > 0.98, 'the blue avatar fills the circle');
    t.true(drawn.share(20, 140, 10, 20, isReddish) > 0.9, 'the background is still the red one');
    // The same card without it shows the default silhouette there: the check above can fail.
    const without = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(without.status, 200, JSON.stringify(without.body));
    t.is(decodePng((await fetchMedia(current, without.body.url)).bytes).share(...AVATAR_SQUARE, isBluish), 0);
    t.true(current.images.requests.includes('/blue.png'));
  });

  test(`${mode}: an unusable customAvatar is a 422 naming it`, async (t) => {
    const current = target();
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customAvatar: `${current.images.url}/page.png`, customTag: `bad avatar ${mode}` });
    t.is(reply.status, 422, JSON.stringify(reply.body));
    t.is(reply.body.error.code, 'image_unusable');
    t.is(reply.body.error.details[0].field, 'customAvatar');
  });

  test(`${mode}: an animated customAvatar moves with animated true: the card plays its frames`, async (t) => {
    const current = target();
    const source = ANIMATED_SOURCES.webp;
    const body = { customAvatar: `${current.images.url}${source.path}`, animated: true, customTag: `animated avatar ${mode}` };
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.animated, true);
    t.is(reply.body.frames, source.delaysMs.length);
    const info = await webpFrames((await fetchMedia(current, reply.body.url)).bytes);
    t.is(info.count, source.delaysMs.length, info.stdout);
    t.deepEqual(info.delaysMs, [...source.delaysMs], info.stdout);
  });

  test(`${mode}: Discord integer colours draw the same card as their #hex and are echoed as #rrggbb`, async (t) => {
    const current = target();
    const base = { customBackground: `${current.images.url}/red.png`, backgroundBrightness: 100, customTag: `integer colours ${mode}` };
    // 5793266 is discord.js's `member.displayColor` for #5865F2 (blurple); 255 is #0000ff.
    const integer = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...base, usernameColor: 5793266, borderColor: 255 });
    t.is(integer.status, 200, JSON.stringify(integer.body));
    t.is(integer.body.options.usernameColor, '#5865f2');
    t.is(integer.body.options.borderColor, '#0000ff');
    const hex = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...base, usernameColor: '#5865F2', borderColor: '#00F' });
    t.is(hex.status, 200, JSON.stringify(hex.body));
    // One card: the integer request is the hex one (same render, same content-addressed URL).
    t.is(hex.body.url, integer.body.url);
    const pixels = decodePng((await fetchMedia(current, integer.body.url)).bytes);
    t.true(pixels.share(0, 100, 3, 100, isBluish) > 0.9, 'blue border along the left edge');
    const blurple = (pixel: { r: number; g: number; b: number }) => Math.abs(pixel.r - 0x58) < 12 && Math.abs(pixel.g - 0x65) < 12 && Math.abs(pixel.b - 0xf2) < 12;
    t.true(pixels.share(250, 40, 400, 120, blurple) > 0.005, 'blurple name pixels');
  });

  test(`${mode}: custom background and badge images from a loopback server appear on the card`, async (t) => {
    const current = target();
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, {
      customBackground: `${current.images.url}/red.png`,
      customBadges: [`${current.images.url}/blue.png`],
      backgroundBrightness: 100,
      customTag: 'images',
    });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    const pixels = decodePng((await fetchMedia(current, reply.body.url)).bytes);
    // The background shows along the card's edges; the badge sits in the top right corner.
    t.true(pixels.share(20, 140, 10, 20, isReddish) > 0.9, 'red background at the left edge');
    t.true(pixels.share(600, 0, 300, 110, isBluish) > 0.005, 'blue badge pixels top right');
    t.true(current.images.requests.includes('/red.png'));
    t.true(current.images.requests.includes('/blue.png'));
  });

  test(`${mode}: an unusable image is a 422 naming the field`, async (t) => {
    const current = target();
    const html = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customBackground: `${current.images.url}/page.png` });
    t.is(html.status, 422, JSON.stringify(html.body));
    t.is(html.body.error.code, 'image_unusable');
    t.regex(html.body.error.message, /^customBackground: /);
    const missing = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customBadges: [`${current.images.url}/blue.png`, `${current.images.url}/missing.png`] });
    t.is(missing.status, 422, JSON.stringify(missing.body));
    t.regex(missing.body.error.message, /^customBadges\.1: /);
  });

  test(`${mode}: identical concurrent requests share one render`, async (t) => {
    const current = target();
    const body = { customTag: `dedupe ${mode} ${Date.now()}`, backgroundBrightness: 42 };
    const replies = await Promise.all(Array.from({ length: 6 }, () => post(current, `/v1/profile-image?userId=${USER_ID}`, body)));
    for (const reply of replies) t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(new Set(replies.map((reply) => reply.body.url)).size, 1);
    t.is(replies.filter((reply) => reply.headers.get('x-card-render') === 'new').length, 1);
    // A later identical request is answered without drawing.
    const again = await post(current, `/v1/profile-image/${USER_ID}`, body);
    t.is(again.headers.get('x-card-render'), 'reused');
    t.is(again.body.url, replies[0]!.body.url);
    const mediaKey = replies[0]!.body.url.split('/').pop().replace('.png', '');
    t.is(await current.rendersOf(mediaKey), 1);
  });

  test(`${mode}: format webp, avif and gif store the card under that extension, decodable by the reference tools and looking like the PNG`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}/red.png`, customBadges: [`${current.images.url}/blue.png`], backgroundBrightness: 100, customTag: `formats ${mode}` };
    const pngReply = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(pngReply.status, 200, JSON.stringify(pngReply.body));
    const reference = decodePng((await fetchMedia(current, pngReply.body.url)).bytes);
    const decoders = {
      webp: async (bytes: Buffer) => {
        const { stdout } = await runWithInput('webpmux', ['-info', '-'], bytes);
        t.regex(stdout, /Canvas size: 900 x 300/);
        return decodePng(await webpToPng(bytes));
      },
      avif: async (bytes: Buffer) => decodePng(await avifToPng(bytes)),
      gif: async (bytes: Buffer) => {
        // A static card is one frame, quantised to a palette.
        const { stdout } = await runWithInput('gifsicle', ['--info'], bytes);
        t.regex(stdout, /^\* <stdin> 1 image$/m);
        t.regex(stdout, /logical screen 900x300/);
        const { data, info } = await sharp(bytes).ensureAlpha().png().toBuffer({ resolveWithObject: true });
        t.is(info.width, 900);
        return decodePng(data);
      },
    } as const;
    for (const format of ['webp', 'avif', 'gif'] as const) {
      const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, format });
      t.is(reply.status, 200, JSON.stringify(reply.body));
      t.deepEqual(reply.body.options, { ...body, format });
      t.is(reply.body.altText, pngReply.body.altText, 'the format does not change what the card shows');
      t.regex(reply.body.url, new RegExp(`^${current.url}/media/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.${format}$`));
      const media = await fetchMedia(current, reply.body.url);
      t.is(media.status, 200);
      t.is(media.headers.get('content-type'), `image/${format}`);
      t.is(media.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      t.is(Number(media.headers.get('content-length')), media.bytes.length);
      t.regex(media.headers.get('etag') ?? '', /^"[0-9a-f]+"$/);
      // Another extension for the same key is another object, which was never stored.
      const otherFormat = format === 'webp' ? 'avif' : 'webp';
      t.is((await fetch(reply.body.url.replace(new RegExp(`\\.${format}$`), `.${otherFormat}`))).status, 404);
      const pixels = await decoders[format](media.bytes);
      t.deepEqual([pixels.width, pixels.height], [900, 300], format);
      // Same picture as the PNG within lossy tolerance, over the opaque card (the corners are transparent).
      let difference = 0;
      let compared = 0;
      for (let y = 0; y < 300; y += 3) {
        for (let x = 0; x < 900; x += 3) {
          const expected = reference.at(x, y);
          if (expected.a < 255) continue;
          const actual = pixels.at(x, y);
          difference += Math.abs(expected.r - actual.r) + Math.abs(expected.g - actual.g) + Math.abs(expected.b - actual.b);
          compared += 3;
        }
      }
      t.true(difference / compared < 6, `${format}: mean channel difference ${(difference / compared).toFixed(2)}`);
      t.true(pixels.share(20, 140, 10, 20, isReddish) > 0.9, `${format}: red background at the left edge`);
      t.true(pixels.share(600, 0, 300, 110, isBluish) > 0.005, `${format}: blue badge pixels top right`);
    }
  });

  test(`${mode}: identical requests share one render per format; the PNG and the WebP of one card are two renders`, async (t) => {
    const current = target();
    const body = { customTag: `format dedupe ${mode} ${Date.now()}`, format: 'webp' };
    const replies = await Promise.all(Array.from({ length: 2 }, () => post(current, `/v1/profile-image?userId=${USER_ID}`, body)));
    for (const reply of replies) t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(replies[0]!.body.url, replies[1]!.body.url);
    t.deepEqual(replies.map((reply) => reply.headers.get('x-card-render')).sort(), ['new', 'reused']);
    const { format: _format, ...pngBody } = body;
    const png = await post(current, `/v1/profile-image?userId=${USER_ID}`, pngBody);
    const explicitPng = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...pngBody, format: 'png' });
    t.is(png.headers.get('x-card-render'), 'new');
    t.is(explicitPng.headers.get('x-card-render'), 'reused', 'format png is the default, the same render');
    t.is(explicitPng.body.url, png.body.url);
    t.regex(png.body.url, /\.png$/);
    const keyOf = (url: string) => url.split('/').pop()!.split('.')[0]!;
    t.not(keyOf(png.body.url), keyOf(replies[0]!.body.url));
    t.is(await current.rendersOf(keyOf(replies[0]!.body.url)), 1);
    t.is(await current.rendersOf(keyOf(png.body.url)), 1);
  });

  test(`${mode}: altText describes the welcome card and the rank block`, async (t) => {
    const current = target();
    const welcome = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'welcome', customUsername: 'Ada', customTag: '@ada.codes', message: 'You are member #1,234', presenceStatus: 'dnd' });
    t.is(welcome.status, 200, JSON.stringify(welcome.body));
    t.is(welcome.body.altText, 'Welcome card for Ada (@ada.codes): “Welcome”, “You are member #1,234”, do not disturb.');
    const rank = { currentXp: 1234, requiredXp: 5000, level: 12, rank: 1, barColor: '#5865F2', levelColor: '#FFFFFF', autoColorRank: true };
    const profile = await post(current, `/v1/profile-image?userId=${USER_ID}`, { customUsername: 'Ada\u202e', customTag: '@ada.codes', rankData: rank, presenceStatus: 'online' });
    t.is(profile.status, 200, JSON.stringify(profile.body));
    t.is(profile.body.altText, 'Profile card for Ada (@ada.codes): level 12, rank #1, 1.2K of 5K XP, online.');
  });

  test(`${mode}: fontFamily and labels: a family off the list is a 400 listing the allowed ones, an overlong label one naming it; good ones draw and the alt text says the labels`, async (t) => {
    const current = target();
    const family = await post(current, `/v1/profile-image?userId=${USER_ID}`, { fontFamily: 'Comic Sans' });
    t.is(family.status, 400);
    t.deepEqual(family.body.error.details, [{ in: 'body', field: 'fontFamily', message: `must be one of ${CARD_FONT_FAMILY_IDS.join(', ')}` }]);
    const long = await post(current, `/v1/profile-image?userId=${USER_ID}`, { labels: { rank: 'x'.repeat(CARD_LIMITS.maxLabelLength + 1) } });
    t.is(long.status, 400);
    t.deepEqual(long.body.error.details, [{ in: 'body', field: 'labels.rank', message: `must be at most ${CARD_LIMITS.maxLabelLength} characters` }]);
    const rank = { currentXp: 1234, requiredXp: 5000, level: 12, rank: 1, barColor: '#5865f2', levelColor: '#ffffff', autoColorRank: true };
    const body = { customUsername: 'Ada', customTag: '@ada.codes', rankData: rank, fontFamily: 'literata', labels: { level: 'Niveau', rank: 'Rang', xp: 'EP' } };
    const drawn = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(drawn.status, 200, JSON.stringify(drawn.body));
    t.deepEqual(drawn.body.options, body);
    t.is(drawn.body.altText, 'Profile card for Ada (@ada.codes): Niveau 12, Rang #1, 1.2K of 5K EP.');
  });

  test(`${mode}: Accept image/* answers the card's bytes with the stored URL in Content-Location; JSON stays the default`, async (t) => {
    const current = target();
    const body = { customTag: `accept ${mode} ${Date.now()}`, presenceStatus: 'idle' };
    const path = `/v1/profile-image?userId=${USER_ID}`;
    const json = await post(current, path, body);
    t.is(json.status, 200);
    t.is(json.headers.get('vary'), 'Accept');
    for (const accept of ['*/*', 'application/json', 'application/json, image/png', 'image/png;q=0.5, application/json', 'text/html, */*;q=0.1']) {
      const reply = await post(current, path, body, { accept });
      t.is(reply.status, 200, accept);
      t.regex(reply.headers.get('content-type') ?? '', /^application\/json/, accept);
      t.deepEqual(reply.body, json.body, accept);
    }
    const png = await postForBytes(current, path, body, 'image/png');
    t.is(png.status, 200);
    t.is(png.headers.get('content-type'), 'image/png');
    t.is(Number(png.headers.get('content-length')), png.bytes.length);
    t.is(png.headers.get('content-location'), json.body.url);
    t.is(png.headers.get('x-card-render'), 'reused');
    t.is(png.headers.get('vary'), 'Accept');
    const stored = await fetchMedia(current, json.body.url);
    t.deepEqual(png.bytes, stored.bytes, 'the same bytes as /media serves');
    t.is(png.headers.get('etag'), stored.headers.get('etag'));
    t.is(decodeURIComponent(png.headers.get('x-alt-text')!.replace(/^UTF-8''/, '')), json.body.altText);
    t.regex(png.headers.get('x-alt-text')!, /^UTF-8''[A-Za-z0-9%!#$&+\-.^_`|~]+$/, 'RFC 8187 attr-chars only');

    // An image type without `format` picks the format, q-values respected.
    const webp = await postForBytes(current, path, body, 'image/png;q=0.4, image/webp, application/json;q=0.9');
    t.is(webp.status, 200);
    t.is(webp.headers.get('content-type'), 'image/webp');
    t.regex(webp.headers.get('content-location') ?? '', /\.webp$/);
    t.regex((await runWithInput('webpmux', ['-info', '-'], webp.bytes)).stdout, /Canvas size: 900 x 300/);
    const avif = await postForBytes(current, path, { ...body, format: 'avif' }, 'image/*');
    t.is(avif.headers.get('content-type'), 'image/avif');
    t.deepEqual([decodePng(await avifToPng(avif.bytes)).width, decodePng(await avifToPng(avif.bytes)).height], [900, 300]);
    const gif = await postForBytes(current, path, body, 'image/gif');
    t.is(gif.headers.get('content-type'), 'image/gif');
    t.regex((await runWithInput('gifsicle', ['--info'], gif.bytes)).stdout, /logical screen 900x300/);
  });

  test(`${mode}: an Accept that matches nothing, or contradicts format, is a 406 JSON error before anything is drawn; errors stay JSON`, async (t) => {
    const current = target();
    const path = `/v1/profile-image?userId=${USER_ID}`;
    const tag = `not acceptable ${mode} ${Date.now()}`;
    for (const accept of ['text/html', 'image/jpeg', 'application/json;q=0, image/*;q=0']) {
      const reply = await post(current, path, { customTag: tag }, { accept });
      t.is(reply.status, 406, accept);
      t.is(reply.body.error.code, 'not_acceptable');
      t.regex(reply.body.error.message, /application\/json, image\/png, image\/webp, image\/avif, image\/gif/);
    }
    const conflict = await post(current, path, { customTag: tag, format: 'webp' }, { accept: 'image/png' });
    t.is(conflict.status, 406);
    t.regex(conflict.headers.get('content-type') ?? '', /^application\/json/);
    t.deepEqual(conflict.body.error.details, [{ in: 'body', field: 'format', message: 'contradicts Accept (image/png)' }]);
    // Nothing was drawn: the first acceptable request for this card is a new render.
    const fine = await post(current, path, { customTag: tag });
    t.is(fine.headers.get('x-card-render'), 'new');
    const invalid = await postForBytes(current, path, { presenceStatus: 'busy' }, 'image/png');
    t.is(invalid.status, 400);
    t.regex(invalid.headers.get('content-type') ?? '', /^application\/json/);
    const contract = await loadContract(current.url);
    t.deepEqual(contract.check('/v1/profile-image', 'POST', 406, conflict.body), []);
  });
  test(`${mode}: animated true over a moving GIF background answers an animated WebP playing the source's frames for the source's times`, async (t) => {
    const current = target();
    const source = ANIMATED_SOURCES.gif;
    const body = { customBackground: `${current.images.url}${source.path}`, animated: true, customTag: `animated webp ${mode}` };
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.animated, true);
    t.is(reply.body.frames, source.delaysMs.length);
    t.is(reply.headers.get('x-card-frames'), String(source.delaysMs.length));
    t.deepEqual(reply.body.options, body);
    t.regex(reply.body.url, /\/media\/[0-9a-f-]{36}\.webp$/);
    const media = await fetchMedia(current, reply.body.url);
    t.is(media.status, 200);
    t.is(media.headers.get('content-type'), 'image/webp');
    const info = await webpFrames(media.bytes);
    t.regex(info.stdout, /Features present: animation/);
    t.is(info.canvas, '900 x 300');
    t.is(info.count, source.delaysMs.length, info.stdout);
    t.deepEqual(info.delaysMs, [...source.delaysMs], info.stdout);
  });

  test(`${mode}: animated true with format gif over a moving WebP background answers a GIF playing the source's frames for the source's times`, async (t) => {
    const current = target();
    const source = ANIMATED_SOURCES.webp;
    const body = { customBackground: `${current.images.url}${source.path}`, animated: true, format: 'gif', customTag: `animated gif ${mode}` };
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.animated, true);
    t.is(reply.body.frames, source.delaysMs.length);
    t.regex(reply.body.url, /\/media\/[0-9a-f-]{36}\.gif$/);
    const media = await fetchMedia(current, reply.body.url);
    t.is(media.headers.get('content-type'), 'image/gif');
    const info = await gifFrames(media.bytes);
    t.is(info.screen, '900x300');
    t.is(info.count, source.delaysMs.length, info.stdout);
    t.deepEqual(info.delaysMs, [...source.delaysMs], info.stdout);
    t.regex(info.stdout, /loop forever/);
  });

  test(`${mode}: animated true where nothing moves answers the still card and says so: PNG by default, else in format`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}/red.png`, animated: true, customTag: `still animated ${mode}` };
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.animated, false);
    t.is(reply.body.frames, 1);
    t.is(reply.headers.get('x-card-frames'), '1');
    t.regex(reply.body.url, /\.png$/);
    const still = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, animated: false });
    t.is(still.body.animated, undefined, 'a still request says nothing about animation');
    t.is(still.body.frames, undefined);
    t.is(reply.body.url, still.body.url, 'the same PNG as the card asked for still');
    const webp = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, format: 'webp' });
    t.is(webp.body.animated, false);
    t.regex(webp.body.url, /\.webp$/);
    const info = await webpFrames((await fetchMedia(current, webp.body.url)).bytes);
    t.notRegex(info.stdout, /animation/);
  });

  test(`${mode}: Accept image/gif with animated true answers the animated GIF's bytes; png or avif cannot move`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}${ANIMATED_SOURCES.gif.path}`, animated: true, customTag: `animated accept ${mode}` };
    const image = await postForBytes(current, `/v1/profile-image?userId=${USER_ID}`, body, 'image/gif');
    t.is(image.status, 200, image.bytes.toString());
    t.is(image.headers.get('content-type'), 'image/gif');
    t.is(image.headers.get('x-card-frames'), String(ANIMATED_SOURCES.gif.delaysMs.length));
    t.regex(image.headers.get('content-location') ?? '', /\.gif$/);
    t.is((await gifFrames(image.bytes)).count, ANIMATED_SOURCES.gif.delaysMs.length);
    const png = await postForBytes(current, `/v1/profile-image?userId=${USER_ID}`, body, 'image/png');
    t.is(png.status, 406);
    const refused = JSON.parse(png.bytes.toString());
    t.is(refused.error.code, 'not_acceptable');
    t.is(refused.error.details[0].field, 'animated');
    for (const format of ['png', 'avif']) {
      const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, format });
      t.is(reply.status, 400, JSON.stringify(reply.body));
      t.is(reply.body.error.code, 'invalid_request');
      t.is(reply.body.error.details[0].field, 'format');
      t.regex(reply.body.error.details[0].message, /animated/);
    }
  });

  test(`${mode}: identical animated requests share one render; the animated and the still card are two`, async (t) => {
    const current = target();
    const body = { customBackground: `${current.images.url}${ANIMATED_SOURCES.webp.path}`, animated: true, customTag: `animated dedupe ${mode} ${Date.now()}` };
    const replies = await Promise.all(Array.from({ length: 2 }, () => post(current, `/v1/profile-image?userId=${USER_ID}`, body)));
    for (const reply of replies) t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(replies[0]!.body.url, replies[1]!.body.url);
    t.deepEqual(replies.map((reply) => reply.headers.get('x-card-render')).sort(), ['new', 'reused']);
    const still = await post(current, `/v1/profile-image?userId=${USER_ID}`, { ...body, animated: false });
    t.is(still.headers.get('x-card-render'), 'new');
    t.regex(still.body.url, /\.png$/);
    const keyOf = (url: string) => url.split('/').pop()!.split('.')[0]!;
    t.is(await current.rendersOf(keyOf(replies[0]!.body.url)), 1);
  });
}
