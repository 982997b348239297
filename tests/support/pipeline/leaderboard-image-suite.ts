import { LEADERBOARD_LIMITS } from '@utility-api/render-jobs';
import type { TestFn } from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { decodePng, isBluish, isReddish } from './png-pixels.ts';
import { USER_ID, type PipelineTarget } from './profile-image-suite.ts';

/** packages/card/src/leaderboard/leaderboard-layout.ts: rows from y 124, 80 px tall every 88 px, avatars centred at x 176, radius 30. */
const ROWS = { top: 124, step: 88, height: 80, avatarX: 176 } as const;
const SEPARATOR = 44;
const boardHeight = (rows: number, extra: boolean) => ROWS.top + rows * ROWS.step - 8 + (extra ? SEPARATOR + ROWS.height : 0) + 24;
/** A square well inside the avatar circle of the row whose top is `top`. */
const avatarSquare = (top: number) => [ROWS.avatarX - 15, top + ROWS.height / 2 - 15, 30, 30] as const;
const rowTop = (index: number) => ROWS.top + index * ROWS.step;

async function post(target: PipelineTarget, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}${path}`, { method: 'POST', headers: { authorization: target.apiKey, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, bytes, body: isJson ? JSON.parse(bytes.toString()) : undefined };
}

const media = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

/** `POST /v1/leaderboard-image` and the level-up layout, identical in both run modes. */
export function registerLeaderboardImageTests(test: TestFn, target: () => PipelineTarget, mode: string): void {
  test(`${mode}: a leaderboard draws each row's avatar from the test server, the default avatar where there is none, and the asking member's own row under an ellipsis`, async (t) => {
    const current = target();
    const images = current.images.url;
    const body = {
      title: `Top ${mode}`,
      rows: [
        { rank: 1, name: 'Ada', avatarUrl: `${images}/blue.png`, level: 42, score: 98765 },
        { rank: 2, name: 'Kai', avatarUrl: `${images}/red.png`, level: 39, score: 90642 },
        { rank: 3, name: 'Grace', level: 36, score: 82500 },
      ],
      highlight: { rank: 27, name: 'Mika', avatarUrl: `${images}/blue.png`, level: 9, score: 4210 },
      autoColorRank: true,
    };
    const reply = await post(current, '/v1/leaderboard-image', body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.deepEqual(reply.body.options, body);
    t.is(reply.body.altText, `Leaderboard “Top ${mode}”: #1 Ada, level 42, 98.7K XP; #2 Kai, level 39, 90.6K XP; #3 Grace, level 36, 82.5K XP; your row: #27 Mika, level 9, 4.2K XP.`);
    t.regex(reply.body.url, /\/media\/[0-9a-f-]{36}\.png$/);
    const pixels = decodePng(await media(reply.body.url));
    t.is(pixels.width, 900);
    t.is(pixels.height, boardHeight(3, true));
    t.true(pixels.share(...avatarSquare(rowTop(0)), isBluish) > 0.98, 'row 1: the blue avatar');
    t.true(pixels.share(...avatarSquare(rowTop(1)), isReddish) > 0.98, 'row 2: the red avatar');
    // The default avatar: a light silhouette (on the accent's dark tones), which neither test image has.
    const whitish = (pixel: { r: number; g: number; b: number }) => pixel.r > 200 && pixel.g > 200 && pixel.b > 200;
    t.true(pixels.share(...avatarSquare(rowTop(2)), whitish) > 0.2, 'row 3: the default avatar');
    t.is(pixels.share(...avatarSquare(rowTop(0)), whitish), 0, 'row 1 has no silhouette');
    t.true(pixels.share(...avatarSquare(rowTop(3) - 8 + SEPARATOR), isBluish) > 0.98, 'the asking member, after the gap: blue');
  });

  test(`${mode}: the asking member on the board is highlighted in place: no extra row`, async (t) => {
    const current = target();
    const reply = await post(current, '/v1/leaderboard-image', { rows: [{ rank: 1, name: 'Ada' }, { rank: 2, name: `Mika ${mode}` }], highlight: { rank: 2, name: `Mika ${mode}` } });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(decodePng(await media(reply.body.url)).height, boardHeight(2, false));
    t.is(reply.body.altText, `Leaderboard “Leaderboard”: #1 Ada; #2 Mika ${mode} (your row).`);
  });

  test(`${mode}: a leaderboard avatar that cannot be used is the default avatar, not an error`, async (t) => {
    const current = target();
    const images = current.images.url;
    const rows = [
      { rank: 1, name: 'not an image', avatarUrl: `${images}/page.png` },
      { rank: 2, name: 'missing', avatarUrl: `${images}/missing-${mode}.png` },
      { rank: 3, name: 'unknown user', userId: USER_ID },
    ];
    const reply = await post(current, '/v1/leaderboard-image', { rows });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    const pixels = decodePng(await media(reply.body.url));
    // The default avatar is a silhouette on the accent's dark tones: white-ish and bluish-grey, never the test server's colors.
    const whitish = (pixel: { r: number; g: number; b: number }) => pixel.r > 200 && pixel.g > 200 && pixel.b > 200;
    for (const index of [0, 1, 2]) t.true(pixels.share(...avatarSquare(rowTop(index)), whitish) > 0.2, `row ${index + 1}: the default avatar's silhouette`);
    t.true(current.images.requests.includes('/page.png'));
    // Each fallback is said where the operator looks: the render's log line names the row and why.
    const mediaKey = /\/media\/([0-9a-f-]{36})\.png$/.exec(reply.body.url)![1]!;
    const logged = (await current.renderLogOf(mediaKey)).map((line) => JSON.parse(line) as { warnings: string[] });
    t.true(logged.length > 0, 'the render was logged');
    const warnings = logged[0]!.warnings;
    t.true(warnings.some((warning) => warning.startsWith('rows.0.avatarUrl: ')), JSON.stringify(warnings));
    t.true(warnings.some((warning) => warning.startsWith('rows.1.avatarUrl: ')), JSON.stringify(warnings));
  });

  test(`${mode}: a leaderboard's server icon and background photo come through the fetcher; a dead icon is the initials, a dead background refuses the board`, async (t) => {
    const current = target();
    const images = current.images.url;
    const rows = [1, 2, 3, 4].map((rank) => ({ rank, name: `Member ${rank}`, level: 10 - rank, score: 1000 - rank }));
    const body = { rows, podium: true, guild: { name: `Server ${mode}`, iconUrl: `${images}/blue.png`, memberCount: 1234 }, background: `${images}/red.png` };
    const reply = await post(current, '/v1/leaderboard-image', body);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.deepEqual(reply.body.options, body);
    const pixels = decodePng(await media(reply.body.url));
    // leaderboard-layout.ts: server header 24 px taller, a 290 px podium and 52 px for the column headings, then one row.
    t.is(pixels.height, ROWS.top + 24 + 290 + 52 + ROWS.height + 24);
    t.true(pixels.share(68 - 15, 74 - 15, 30, 30, isBluish) > 0.98, 'the server icon');
    t.true(pixels.share(7, 300, 10, 200, isReddish) > 0.98, 'the red background beside the boxes, under its veil');
    const deadIcon = await post(current, '/v1/leaderboard-image', { rows, guild: { name: `Dead icon ${mode}`, iconUrl: `${images}/page.png` } });
    t.is(deadIcon.status, 200, JSON.stringify(deadIcon.body));
    // The initials' disc is the accent darkened (blurple here): never the test server's pure blue.
    const pureBlue = (pixel: { r: number; g: number; b: number }) => pixel.b > 240 && pixel.r < 15 && pixel.g < 15;
    t.is(decodePng(await media(deadIcon.body.url)).share(68 - 15, 74 - 15, 30, 30, pureBlue), 0, 'no icon');
    t.true(pixels.share(68 - 15, 74 - 15, 30, 30, pureBlue) > 0.98, 'the check can fail');
    const mediaKey = /\/media\/([0-9a-f-]{36})\.png$/.exec(deadIcon.body.url)![1]!;
    const logged = (await current.renderLogOf(mediaKey)).map((line) => JSON.parse(line) as { warnings: string[] });
    t.true(logged[0]!.warnings.some((warning) => warning.startsWith('guild.iconUrl: ')), JSON.stringify(logged));
    const deadBackground = await post(current, '/v1/leaderboard-image', { rows, background: `${images}/page.png` });
    t.is(deadBackground.status, 422, JSON.stringify(deadBackground.body));
    t.is(deadBackground.body.error.code, 'image_unusable');
    t.is(deadBackground.body.error.details[0].field, 'background');
    const contract = await loadContract(current.url);
    t.deepEqual(contract.check('/v1/leaderboard-image', 'POST', 200, reply.body), []);
    t.deepEqual(contract.check('/v1/leaderboard-image', 'POST', 422, deadBackground.body), []);
  });

  test(`${mode}: scale 2 draws a profile card, a welcome card and a leaderboard at twice the size; scale 3 is a 400`, async (t) => {
    const current = target();
    for (const layout of ['profile', 'welcome']) {
      const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout, scale: 2, customTag: `hidpi ${mode}` });
      t.is(reply.status, 200, JSON.stringify(reply.body));
      const pixels = decodePng(await media(reply.body.url));
      t.deepEqual([pixels.width, pixels.height], [1800, 600], layout);
    }
    const board = await post(current, '/v1/leaderboard-image', { rows: [{ rank: 1, name: `Ada ${mode}`, avatarUrl: `${current.images.url}/blue.png` }], scale: 2 });
    t.is(board.status, 200, JSON.stringify(board.body));
    const pixels = decodePng(await media(board.body.url));
    t.deepEqual([pixels.width, pixels.height], [1800, boardHeight(1, false) * 2]);
    t.true(pixels.share(2 * (ROWS.avatarX - 15), 2 * (ROWS.top + ROWS.height / 2 - 15), 60, 60, isBluish) > 0.98, 'the avatar at twice its place');
    for (const [path, body] of [[`/v1/profile-image?userId=${USER_ID}`, { scale: 3 }], ['/v1/leaderboard-image', { rows: [{ rank: 1, name: 'Ada' }], scale: 1.5 }]] as const) {
      const refused = await post(current, path, body);
      t.is(refused.status, 400);
      t.deepEqual(refused.body.error.details.map((detail: any) => [detail.field, detail.message]), [['scale', 'must be 1 or 2']]);
    }
  });

  test(`${mode}: Accept image/png answers the leaderboard's bytes with its URL and alt text`, async (t) => {
    const current = target();
    const reply = await post(current, '/v1/leaderboard-image', { rows: [{ rank: 1, name: `Ada ${mode}`, score: 5 }] }, { accept: 'image/png' });
    t.is(reply.status, 200);
    t.is(reply.headers.get('content-type'), 'image/png');
    t.regex(reply.headers.get('content-location') ?? '', /\/media\/[0-9a-f-]{36}\.png$/);
    t.is(decodeURIComponent((reply.headers.get('x-alt-text') ?? '').replace(/^UTF-8''/, '')), `Leaderboard “Leaderboard”: #1 Ada ${mode}, 5 XP.`);
    t.is(decodePng(reply.bytes).height, boardHeight(1, false));
    t.deepEqual(await media(reply.headers.get('content-location')!), reply.bytes);
    const contradicting = await post(current, '/v1/leaderboard-image', { rows: [{ rank: 1, name: 'Ada' }], format: 'webp' }, { accept: 'image/png' });
    t.is(contradicting.status, 406);
  });

  test(`${mode}: hostile leaderboards are 400s naming the field, and the answers match the OpenAPI document`, async (t) => {
    const current = target();
    const contract = await loadContract(current.url);
    const row = (rank: number) => ({ rank, name: `Member ${rank}` });
    const cases: [unknown, string | undefined][] = [
      [{ rows: Array.from({ length: 11 }, (_, index) => row(index + 1)) }, 'rows'],
      [{ rows: [] }, 'rows'],
      [{ rows: [row(1), row(1)] }, 'rows.1.rank'],
      [{ rows: [{ rank: 1, name: 'x'.repeat(LEADERBOARD_LIMITS.maxNameLength + 1) }] }, 'rows.0.name'],
      [{ rows: [{ rank: 1, name: '   ' }] }, 'rows.0.name'],
      [{ rows: [{ rank: 1, name: 'Ada', avatarUrl: 'https://example.com/a.png', userId: USER_ID }] }, 'rows.0.avatarUrl'],
      [{ rows: [{ rank: 1, name: 'Ada', avatarUrl: 'file:///etc/passwd' }] }, 'rows.0.avatarUrl'],
      [{ rows: [{ rank: 0, name: 'Ada' }] }, 'rows.0.rank'],
      [{ rows: [row(1)], highlight: { rank: 2 } }, 'highlight.name'],
      [{ rows: [row(1)], colour: 'red' }, undefined],
      [{ rows: [row(1), row(2)], podium: true }, 'podium'],
      [{ rows: [row(1)], guild: { name: ' ' } }, 'guild.name'],
      [{ rows: [row(1)], guild: { name: 'x'.repeat(101) } }, 'guild.name'],
      [{ rows: [row(1)], guild: { name: 'Server', memberCount: -1 } }, 'guild.memberCount'],
      [{ rows: [row(1)], guild: { name: 'Server', iconUrl: 'file:///etc/passwd' } }, 'guild.iconUrl'],
      [{ rows: [row(1)], guild: { name: 'Server', id: '1' } }, undefined],
      [{ rows: [row(1)], background: 'ftp://example.com/a.png' }, 'background'],
    ];
    for (const [body, field] of cases) {
      const reply = await post(current, '/v1/leaderboard-image', body);
      t.is(reply.status, 400, JSON.stringify(body));
      t.is(reply.body.error.code, 'invalid_request');
      if (field !== undefined) t.true(reply.body.error.details.some((detail: any) => detail.field === field), `${field}: ${JSON.stringify(reply.body.error.details)}`);
      t.deepEqual(contract.check('/v1/leaderboard-image', 'POST', 400, reply.body), []);
    }
    const longest = await post(current, '/v1/leaderboard-image', { rows: Array.from({ length: 10 }, (_, index) => ({ rank: index + 1, name: `${'W'.repeat(63)}${index}`, level: 1e9, score: 1e15 })) });
    t.is(longest.status, 200, JSON.stringify(longest.body));
    t.deepEqual(contract.check('/v1/leaderboard-image', 'POST', 200, longest.body), []);
    t.is(decodePng(await media(longest.body.url)).height, boardHeight(10, false));
  });

  test(`${mode}: layout levelup draws old level -> new level; it needs rankData`, async (t) => {
    const current = target();
    const rankData = { currentXp: 10, requiredXp: 100, level: 13, rank: 4, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: false };
    const missing = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'levelup' });
    t.is(missing.status, 400);
    t.is(missing.body.error.details[0].field, 'rankData');
    const backwards = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'levelup', rankData: { ...rankData, previousLevel: 13 } });
    t.is(backwards.status, 400);
    t.is(backwards.body.error.details[0].field, 'rankData.previousLevel');
    const reply = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'levelup', rankData, message: `Keep going ${mode}` });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.altText, `Level-up card for User 2240: “Level up!”, level 12 to level 13, “Keep going ${mode}”.`);
    const jump = await post(current, `/v1/profile-image?userId=${USER_ID}`, { layout: 'levelup', rankData: { ...rankData, previousLevel: 7 }, headline: 'Promoted' });
    t.is(jump.status, 200, JSON.stringify(jump.body));
    t.is(jump.body.altText, 'Level-up card for User 2240: “Promoted”, level 7 to level 13.');
    const profile = await post(current, `/v1/profile-image?userId=${USER_ID}`, { rankData, message: `Keep going ${mode}` });
    t.not(profile.body.url, reply.body.url, 'another card than the profile card with the same rankData');
    const contract = await loadContract(current.url);
    t.deepEqual(contract.check('/v1/profile-image', 'POST', 200, reply.body), []);
    t.deepEqual(contract.check('/v1/profile-image', 'POST', 400, missing.body), []);
  });
}
