/**
 * The leaderboard card (renderLeaderboardCard) and the level-up layout: sizes, the type scale for a
 * card shown 400 px wide, podium colors, the highlighted member, avatar fallbacks and render keys.
 * Their look is pinned by the leaderboard-* and levelup-* goldens (tests/unit/card/goldens.test.ts).
 */
import { highlightPlacement, leaderboardOptionsSchema, parseHexColor, renderJobId, type LeaderboardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { leaderboardAltText, renderCard, renderLeaderboardCard, type CardInput, type LeaderboardInput } from '../../../packages/card/src/index.ts';
import { leaderboardHeight } from '../../../packages/card/src/leaderboard/leaderboard-layout.ts';
import { highlightFill } from '../../../packages/card/src/leaderboard/render-leaderboard.ts';
import { tabularWidth } from '../../../packages/card/src/leaderboard/tabular-figures.ts';
import { measureText } from '../../../packages/card/src/text/rich-text.ts';
import { createCanvas } from 'canvas';
import { contrastRatio, relativeLuminance } from '../../../packages/card/src/legibility/contrast.ts';
import { sampleAvatarPng, sampleBusyPng, sampleLightPhotoJpeg, sampleSolidPng } from '../../../packages/card/samples/sample-images.ts';
import { layoutSteps } from '../../../packages/card/src/steps/render-steps.ts';
import { PODIUM_COLORS } from '../../../packages/card/src/steps/rank-bar.ts';
import { decodePng } from '../../support/pipeline/png-pixels.ts';

/** The type scale at the full 900 px size: 11 px and 20 px on a card shown 400 px wide. */
const MIN_SECONDARY_SIZE = 25;
const MIN_NAME_SIZE = 45;

const makeContext = () => createCanvas(10, 10).getContext('2d');
const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ rank: index + 1, name: `Member ${index + 1}`, level: 50 - index, score: 10_000 - index * 900 }));
const board = (options: Partial<LeaderboardOptions> & Pick<LeaderboardOptions, 'rows'>, avatars: LeaderboardInput['avatars'] = []): LeaderboardInput => ({
  kind: 'leaderboard',
  options: leaderboardOptionsSchema.parse(options),
  avatars,
});

test('the board is 900 px wide and as tall as its rows: 228 px for one, 1020 px for ten, 1144 px with the asking member under them', async (t) => {
  t.deepEqual([leaderboardHeight(1, false), leaderboardHeight(10, false), leaderboardHeight(10, true)], [228, 1020, 1144]);
  for (const [count, highlight, height] of [[1, undefined, 228], [10, undefined, 1020], [10, { rank: 40, name: 'Me' }, 1144], [10, { rank: 3, name: 'Member 3' }, 1020]] as const) {
    const card = await renderLeaderboardCard(board({ rows: rows(count), ...(highlight ? { highlight } : {}) }));
    t.deepEqual([card.width, card.height], [900, height], `${count} rows, highlight ${JSON.stringify(highlight)}`);
    const pixels = decodePng(card.png);
    t.deepEqual([pixels.width, pixels.height], [900, height]);
  }
});

test('every text is at least 25 px and every name 45 px at full size, however long the name: a long name is cut, not shrunk', async (t) => {
  const long = rows(10).map((row) => ({ ...row, name: `${'W'.repeat(60)}${row.rank}`, level: 1e9, score: 1e15 }));
  const card = await renderLeaderboardCard(board({ rows: long, title: 'T'.repeat(48), highlight: { rank: 99, name: 'M'.repeat(64), level: 3, score: 12 } }));
  const names = card.texts.filter((text) => text.role === 'name');
  t.is(names.length, 11);
  for (const text of card.texts) t.true(text.style.size >= MIN_SECONDARY_SIZE, `${text.role} "${text.text}" at ${text.style.size} px`);
  for (const name of names) {
    t.is(name.style.size, MIN_NAME_SIZE);
    t.true(name.text.endsWith('…'), name.text);
    // The name ends before the level on its row.
    const level = card.texts.find((text) => text.role === 'level' && Math.abs(text.baseline - name.baseline) < 20);
    t.truthy(level);
    t.true(name.x + name.width < level!.x, `${name.x + name.width} < ${level!.x}`);
  }
});

test('level and score stand in columns: each right edge the same on every row, digits in tabular figures, headings drawn once above the list', async (t) => {
  const varied = [
    { rank: 1, name: 'Ada', level: 111, score: 1_111 },
    { rank: 2, name: 'Kai', level: 8, score: 88_888 },
    { rank: 3, name: 'Zoë', level: 42, score: 7 },
  ];
  const card = await renderLeaderboardCard(board({ rows: varied, highlight: { rank: 40, name: 'Me', level: 1, score: 2 }, scoreLabel: 'messages' }));
  const rightEdges = (role: string) => new Set(card.texts.filter((text) => text.role === role).map((text) => Math.round(text.x + text.width)));
  for (const role of ['level', 'score']) t.is(rightEdges(role).size, 1, `${role}: ${[...rightEdges(role)].join(', ')}`);
  t.deepEqual(card.texts.filter((text) => text.role.endsWith('heading')).map((text) => text.text), ['LVL', 'messages']);
  t.is(card.texts.filter((text) => text.role === 'score label' || text.role === 'level label').length, 0, 'no label beside every number');
  // Tabular figures: "111" and "888" as wide (they are not in Inter's own, proportional digits).
  const width = (text: string) => card.texts.find((run) => run.text === text)!.width;
  t.is(width('111'), tabularWidth(makeContext(), '888', card.texts.find((run) => run.text === '111')!.style));
  t.true(measureText(makeContext(), '111', { size: 32, weight: 800, color: '#ffffff' }) < measureText(makeContext(), '888', { size: 32, weight: 800, color: '#ffffff' }), 'the check can fail: proportional ones are narrower');
});

test('names get the room the numbers leave: a wide score label no longer cuts "Barbara Liskov"', async (t) => {
  const card = await renderLeaderboardCard(board({ rows: [{ rank: 7, name: 'Barbara Liskov', level: 24, score: 50_000 }], scoreLabel: 'messages' }));
  t.is(card.texts.find((text) => text.role === 'name')!.text, 'Barbara Liskov');
});

test('podium: ranks 2, 1, 3 side by side above the list, first in the middle and raised; it needs ranks 1 to 3', async (t) => {
  const card = await renderLeaderboardCard(board({ rows: rows(5), podium: true, autoColorRank: true, highlight: { rank: 2, name: 'Member 2' } }));
  t.is(card.height, leaderboardHeight(2, false, { podium: true }));
  const names = card.texts.filter((text) => text.role === 'name');
  t.deepEqual(names.map((text) => text.text), ['Member 2', 'Member 1', 'Member 3', 'Member 4', 'Member 5']);
  const [second, first, third] = names;
  t.true(second!.x < first!.x && first!.x < third!.x);
  t.deepEqual(card.texts.filter((text) => text.role === 'medal').map((text) => text.text), ['2', '1', '3']);
  t.is(card.texts.filter((text) => text.role === 'rank').length, 2, 'only the list rows have a #rank');
  for (const text of card.texts) t.true(text.style.size >= MIN_SECONDARY_SIZE, `${text.role} "${text.text}" at ${text.style.size} px`);
  for (const name of names) t.true(name.style.size >= MIN_NAME_SIZE);
  const issues = leaderboardOptionsSchema.safeParse({ rows: rows(2), podium: true }).error?.issues ?? [];
  t.deepEqual(issues.map((issue) => [issue.path.join('.'), issue.message]), [['podium', 'a podium needs rows ranked 1, 2 and 3 (missing 3)']]);
});

test('a podium place keeps the score when the numbers are huge: the level gives way, then the score label is cut', async (t) => {
  const huge = [1, 2, 3].map((rank) => ({ rank, name: `M${rank}`, level: 999_999_999, score: 999_999_999_999_999 }));
  const card = await renderLeaderboardCard(board({ rows: huge, podium: true, scoreLabel: 'reputation' }));
  for (const rank of ['1', '2', '3']) t.truthy(card.texts.find((text) => text.role === 'score'), rank);
  t.is(card.texts.filter((text) => text.role === 'level').length, 0);
  for (const text of card.texts) t.true(text.style.size >= MIN_SECONDARY_SIZE, `${text.role} "${text.text}" at ${text.style.size} px`);
});

test('the server header: the icon, else the initials, the server name, then the title and member count', async (t) => {
  const withIcon = await renderLeaderboardCard({ ...board({ rows: rows(1), title: 'Weekly', guild: { name: 'Café Nocturne', memberCount: 12_480 } }), guildIcon: sampleAvatarPng(205) });
  t.is(withIcon.height, leaderboardHeight(1, false, { guild: true }));
  t.deepEqual(withIcon.texts.filter((text) => ['guild name', 'title', 'guild initials'].includes(text.role)).map((text) => text.text), ['Café Nocturne', 'Weekly · 12.4K members']);
  const initials = await renderLeaderboardCard({ ...board({ rows: rows(1), guild: { name: 'pixel garden', memberCount: 1 } }), guildIcon: Buffer.from('<html>') });
  t.deepEqual(initials.texts.filter((text) => ['guild name', 'title', 'guild initials'].includes(text.role)).map((text) => text.text), ['pg', 'pixel garden', 'Leaderboard · 1 member']);
  t.true(initials.warnings.some((warning) => warning.includes('guild.iconUrl')), JSON.stringify(initials.warnings));
});

test('autoColorRank draws ranks 1 to 3 in the podium colors and the rest white; without it all are white', async (t) => {
  const colored = await renderLeaderboardCard(board({ rows: rows(5), autoColorRank: true }));
  const rankColors = (card: typeof colored) => card.texts.filter((text) => text.role === 'rank').map((text) => text.style.color);
  t.deepEqual(rankColors(colored), [PODIUM_COLORS.dark[1], PODIUM_COLORS.dark[2], PODIUM_COLORS.dark[3], '#ffffff', '#ffffff']);
  t.deepEqual(rankColors(await renderLeaderboardCard(board({ rows: rows(5) }))), Array(5).fill('#ffffff'));
});

test('the highlighted member is a row of the board when their rank is on it, else an extra row; the extra row gets the last avatar', async (t) => {
  t.deepEqual(highlightPlacement({ rows: rows(3), highlight: { rank: 2, name: 'x' } }), { index: 1 });
  t.deepEqual(highlightPlacement({ rows: rows(3), highlight: { rank: 9, name: 'x' } }), { extra: { rank: 9, name: 'x' } });
  t.is(highlightPlacement({ rows: rows(3) }), undefined);
  const blue = sampleAvatarPng(220);
  const card = await renderLeaderboardCard(board({ rows: rows(2), highlight: { rank: 9, name: 'Me' } }, [undefined, undefined, blue]));
  const pixels = decodePng(card.png);
  // The extra row's avatar (row top 124 + 2 × 88 − 8 + 44 = 336, centre y 376, x 176): the sample avatar's face, not the silhouette.
  const withoutAvatar = decodePng((await renderLeaderboardCard(board({ rows: rows(2), highlight: { rank: 9, name: 'Me' } }))).png);
  t.notDeepEqual(pixels.at(176, 362), withoutAvatar.at(176, 362));
  t.true(card.texts.some((text) => text.role === 'rank' && text.text === '#9'));
});

test('avatar bytes that cannot be decoded are the default avatar with a warning naming the row; the fetcher\'s warnings are kept', async (t) => {
  const html = Buffer.from('<!doctype html><title>not an image</title>');
  const card = await renderLeaderboardCard({ ...board({ rows: rows(3) }, [html, undefined, sampleAvatarPng()]), warnings: ['rows.1.avatarUrl: the image server answered HTTP 404'] });
  t.is(card.warnings[0], 'rows.1.avatarUrl: the image server answered HTTP 404');
  t.is(card.warnings.length, 2, JSON.stringify(card.warnings));
  t.regex(card.warnings[1]!, /^rows\.0\.avatar\b/);
});

test('the board schema refuses what it cannot draw, naming the field', (t) => {
  const issues = (value: unknown) => leaderboardOptionsSchema.safeParse(value).error?.issues.map((issue) => issue.path.join('.')) ?? [];
  t.deepEqual(issues({ rows: rows(11) }), ['rows']);
  t.deepEqual(issues({ rows: [...rows(2), { rank: 2, name: 'again' }] }), ['rows.2.rank']);
  t.deepEqual(issues({ rows: [{ rank: 1, name: 'Ada', avatarUrl: 'https://example.com/a.png', userId: '302050872383242240' }] }), ['rows.0.avatarUrl']);
  t.deepEqual(issues({ rows: rows(1), highlight: { rank: 1 } }), ['highlight.name']);
  t.deepEqual(issues({ rows: rows(10), highlight: { rank: 11, name: 'Me' } }), []);
});

test('a leaderboard is its own render: another board, format or key is another job id; key order does not matter', (t) => {
  const leaderboard = leaderboardOptionsSchema.parse({ rows: rows(2), title: 'A' });
  const id = renderJobId({ kind: 'leaderboard', leaderboard });
  t.is(id, renderJobId({ kind: 'leaderboard', leaderboard: { title: 'A', rows: leaderboard.rows } }));
  t.not(id, renderJobId({ kind: 'leaderboard', leaderboard: { ...leaderboard, title: 'B' } }));
  t.not(id, renderJobId({ kind: 'leaderboard', leaderboard, format: 'webp' }));
  t.not(id, renderJobId({ kind: 'leaderboard', leaderboard }, 'key-2'));
});

test('the alt text lists the rows, marks the asking member and stays within Discord\'s 1024 characters', (t) => {
  t.is(leaderboardAltText(leaderboardOptionsSchema.parse({ rows: rows(2), highlight: { rank: 2, name: 'Member 2' }, scoreLabel: 'pts' })), 'Leaderboard “Leaderboard”: #1 Member 1, level 50, 10K pts; #2 Member 2, level 49, 9.1K pts (your row).');
  const long = leaderboardAltText(leaderboardOptionsSchema.parse({ title: 'x'.repeat(48), rows: rows(10).map((row) => ({ ...row, name: 'n'.repeat(64) })), highlight: { rank: 500, name: 'm'.repeat(64) } }));
  // The board's own limits (11 rows, 64-character names, 48-character title) keep it under the cap.
  t.true(long.length <= 1024, String(long.length));
  t.is(long.split('n'.repeat(64)).length - 1, 10);
  t.true(long.endsWith(`your row: #500 ${'m'.repeat(64)}.`));
});

const PROFILE: CardInput['profile'] = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada', accentColor: '#5b6cff', avatar: sampleAvatarPng() };
const RANK = { currentXp: 1240, requiredXp: 5000, level: 13, rank: 1, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

test('the level-up layout draws previousLevel → level (level − 1 by default) in its own steps, text at least 25 px and the name at least 45 px', async (t) => {
  t.deepEqual(layoutSteps('levelup').steps.map((step) => step.name), ['background', 'overlay', 'legibility', 'avatar', 'levelup text', 'border']);
  const card = await renderCard({ profile: PROFILE, options: { layout: 'levelup', rankData: RANK, message: 'Keep going' } });
  t.deepEqual([card.width, card.height], [900, 300]);
  const byRole = Object.fromEntries(card.texts.map((text) => [text.role, text]));
  t.deepEqual([byRole['headline']?.text, byRole['previous level']?.text, byRole['level']?.text, byRole['name']?.text, byRole['message']?.text], ['LEVEL UP!', '12', '13', 'Ada', 'Keep going']);
  t.is(byRole['level']?.style.color, RANK.levelColor);
  for (const text of card.texts) t.true(text.style.size >= MIN_SECONDARY_SIZE, `${text.role} at ${text.style.size} px`);
  t.true(byRole['name']!.style.size >= MIN_NAME_SIZE);
  const jumped = await renderCard({ profile: PROFILE, options: { layout: 'levelup', rankData: { ...RANK, previousLevel: 7 }, headline: 'Promoted', customUsername: 'N'.repeat(64) } });
  const jumpedTexts = Object.fromEntries(jumped.texts.map((text) => [text.role, text]));
  t.deepEqual([jumpedTexts['headline']?.text, jumpedTexts['previous level']?.text], ['PROMOTED', '7']);
  t.is(jumpedTexts['name']?.style.size, MIN_NAME_SIZE);
  t.true(jumpedTexts['name']!.text.endsWith('…'));
  for (const text of jumped.texts) t.true(text.x >= 272 && text.x + text.width <= 856 + 1, `${text.role} inside the text column`);
});

test('level-up is its own render key, and previousLevel changes it', (t) => {
  const userId = PROFILE.userId;
  const levelup = renderJobId({ userId, options: { layout: 'levelup', rankData: RANK } });
  t.not(levelup, renderJobId({ userId, options: { rankData: RANK } }));
  t.not(levelup, renderJobId({ userId, options: { layout: 'levelup', rankData: { ...RANK, previousLevel: 7 } } }));
});

/**
 * The contrast between a run's colour and the lightest ground around its glyphs (ignoring the
 * lightest 5 %, the glyphs (within 60 of the text colour) and 2 px of antialiased edge around them), read
 * from the PNG alone; a simpler cousin of card-legibility.test.ts's measure, for the board's
 * white and grey text on dark grounds.
 */
function contrastOf(pixels: ReturnType<typeof decodePng>, run: { x: number; baseline: number; width: number; style: { size: number; color: string } }): number {
  const color = parseHexColor(run.style.color);
  const left = Math.floor(run.x);
  const top = Math.floor(run.baseline - run.style.size * 0.8);
  const width = Math.ceil(run.x + run.width) - left;
  const height = Math.ceil(run.baseline + run.style.size * 0.25) - top;
  const glyph = (x: number, y: number) => {
    const pixel = pixels.at(left + x, top + y);
    return Math.hypot(pixel.r - color.r, pixel.g - color.g, pixel.b - color.b) < 60;
  };
  const ground: number[] = [];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      // Antialiased edges reach 2 px from a glyph: they are neither text nor ground.
      let nearGlyph = false;
      for (let dy = -2; dy <= 2 && !nearGlyph; dy += 1) for (let dx = -2; dx <= 2 && !nearGlyph; dx += 1) nearGlyph = x + dx >= 0 && y + dy >= 0 && x + dx < width && y + dy < height && glyph(x + dx, y + dy);
      if (!nearGlyph) ground.push(relativeLuminance(pixels.at(left + x, top + y)));
    }
  }
  ground.sort((first, second) => second - first);
  return contrastRatio(relativeLuminance(color), ground[Math.floor(ground.length * 0.05)] ?? 1);
}

test('every text of the board reaches its contrast, on the highlighted row too, whatever the accent (white and pale yellow included)', async (t) => {
  const problems: string[] = [];
  for (const accentColor of [undefined, '#ffffff', '#ffe08a', '#000000', '#7c3aed', '#22c55e']) {
    const card = await renderLeaderboardCard(board({ rows: rows(4), autoColorRank: true, highlight: { rank: 2, name: 'Member 2' }, ...(accentColor ? { accentColor } : {}) }));
    const pixels = decodePng(card.png);
    for (const run of card.texts) {
      const contrast = contrastOf(pixels, run);
      if (contrast < run.minContrast) problems.push(`${accentColor ?? 'default'}: ${run.role} "${run.text}" ${contrast.toFixed(2)}:1 < ${run.minContrast}:1`);
    }
  }
  t.deepEqual(problems, []);
  // The check can fail: grey label text on the old light fill (white accent darkened by 35 %) does not reach 4.5:1.
  t.true(contrastRatio(relativeLuminance(parseHexColor('#b3b9c4')), relativeLuminance({ r: 166, g: 166, b: 166 })) < 4.5);
  t.true(contrastRatio(relativeLuminance(parseHexColor('#b3b9c4')), relativeLuminance(highlightFill('#ffffff'))) >= 4.5);
});

test('podium and server header on the generated art: every text reaches its contrast and the type scale, whatever the accent, with the icon or the initials', async (t) => {
  const problems: string[] = [];
  const headers = [
    { label: 'icon', guild: { name: 'Café Nocturne', memberCount: 12_480 }, icon: sampleAvatarPng(205) },
    // A server name as long as Discord allows (a looked-up one is cut to it too), drawn with its initials.
    { label: 'initials', guild: { name: `Wide ${'W'.repeat(95)}`, memberCount: 1e9 }, icon: undefined },
  ];
  for (const accentColor of [undefined, '#ffffff', '#ffe08a', '#000000', '#7c3aed', '#22c55e']) {
    for (const header of headers) {
      const card = await renderLeaderboardCard({
        ...board({ rows: rows(6), podium: true, autoColorRank: true, guild: header.guild, highlight: { rank: 1, name: 'Member 1' }, ...(accentColor ? { accentColor } : {}) }),
        guildIcon: header.icon,
      });
      const pixels = decodePng(card.png);
      const where = `${accentColor ?? 'default'} ${header.label}`;
      t.true(card.texts.some((text) => text.role === 'guild name'), where);
      t.true(card.texts.some((text) => text.role === 'medal'), where);
      for (const run of card.texts) {
        const contrast = contrastOf(pixels, run);
        if (contrast < run.minContrast) problems.push(`${where}: ${run.role} "${run.text}" ${contrast.toFixed(2)}:1 < ${run.minContrast}:1`);
        if (run.style.size < MIN_SECONDARY_SIZE) problems.push(`${where}: ${run.role} "${run.text}" at ${run.style.size} px`);
        if ((run.role === 'name' || run.role === 'guild name') && run.style.size < MIN_NAME_SIZE) problems.push(`${where}: ${run.role} "${run.text}" at ${run.style.size} px`);
      }
    }
  }
  t.deepEqual(problems, []);
});

test('on a background photo every text of the board reaches its contrast: white, black, busy and light photos, with podium and server header', async (t) => {
  const problems: string[] = [];
  const photos = { white: sampleSolidPng('#ffffff'), black: sampleSolidPng('#000000'), busy: sampleBusyPng(), light: sampleLightPhotoJpeg() };
  for (const [photo, background] of Object.entries(photos)) {
    for (const podium of [false, true]) {
      const card = await renderLeaderboardCard({
        ...board({ rows: rows(5), podium, autoColorRank: true, scoreLabel: 'messages', guild: { name: 'Server', memberCount: 50 }, highlight: { rank: 12, name: 'Me', level: 1, score: 5 } }),
        background,
      });
      const pixels = decodePng(card.png);
      for (const run of card.texts) {
        const contrast = contrastOf(pixels, run);
        if (contrast < run.minContrast) problems.push(`${photo}${podium ? ' podium' : ''}: ${run.role} "${run.text}" ${contrast.toFixed(2)}:1 < ${run.minContrast}:1`);
      }
    }
  }
  t.deepEqual(problems, []);
});
