/**
 * Golden-image tests: every sample card (packages/card/samples/sample-cards.ts) at 1x is drawn and
 * compared with its committed reference in tests/support/card/goldens/<name>.png (tolerance and what it
 * catches: tests/support/card/golden-images.ts). On a mismatch the actual render and a diff picture are
 * written to a new temp folder, named in the failure.
 *
 * After an intended design change, regenerate the references and review them before committing:
 *     pnpm card:goldens
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cardOptionsSchema } from '@utility-api/render-jobs';
import test from 'ava';
import { createCanvas, loadImage } from 'canvas';
import type { PNG } from 'pngjs';
import { clearCardCaches, renderCard, renderLeaderboardCard, type CardInput } from '../../../packages/card/src/index.ts';
import { SAMPLE_CARDS } from '../../../packages/card/samples/sample-cards.ts';
import {
  compareImages,
  decodePng,
  GOLDEN_CARDS,
  GOLDEN_FOLDER,
  GOLDEN_LEADERBOARDS,
  goldenPath,
  HIDPI_EMOJI_CARD,
  HIDPI_TOLERANCE,
  saveMismatch,
  type Comparison,
} from '../../support/card/golden-images.ts';

const REGENERATE = 'if the change is intended, run `pnpm card:goldens` and review the new PNGs';

function sampleInput(name: string): CardInput {
  const sample = SAMPLE_CARDS.find((card) => card.name === name);
  if (!sample) throw new Error(`no sample card ${name}`);
  return sample.input;
}

const golden = (name: string): PNG => decodePng(readFileSync(goldenPath(name)));

async function againstGolden(name: string, input: CardInput): Promise<{ comparison: Comparison; png: Buffer }> {
  const rendered = await renderCard(input);
  return { comparison: compareImages(decodePng(rendered.png), golden(name)), png: rendered.png };
}

const percent = (share: number) => `${(share * 100).toFixed(3)}%`;

for (const card of GOLDEN_CARDS) {
  test(`${card.name} matches its golden`, async (t) => {
    t.true(existsSync(goldenPath(card.name)), `no golden for ${card.name}: ${REGENERATE}`);
    const { comparison, png } = await againstGolden(card.name, card.input);
    if (comparison.matches) {
      t.pass();
      return;
    }
    const folder = saveMismatch(card.name, png, comparison);
    t.fail(`${card.name}: ${comparison.differentPixels} pixels differ (${percent(comparison.share)}); actual and diff in ${folder}; ${REGENERATE}`);
  });
}

test('the golden folder holds exactly one reference per golden card', (t) => {
  const files = readdirSync(GOLDEN_FOLDER).filter((file) => file.endsWith('.png')).sort();
  t.deepEqual(files, [...GOLDEN_CARDS, ...GOLDEN_LEADERBOARDS].map((card) => `${card.name}.png`).sort());
});

test('the golden matrix covers every option and the edge cases', (t) => {
  const inputs = GOLDEN_CARDS.map((card) => card.input);
  const used = new Set(inputs.flatMap((input) => Object.keys(input.options)));
  // `animated` changes nothing in a still render; animated cards are checked frame by frame in tests/card/animation.
  // `scale` 2 is checked against the 1x goldens, scaled down, for every layout (below), not with goldens of its own.
  // The Discord objects are resolved into the profile before drawing (the discord-* cards draw what they give).
  const resolvedBefore = new Set(['animated', 'scale', 'discordUser', 'discordMember', 'discordRoleColors']);
  const stillOnly = Object.keys(cardOptionsSchema.shape).filter((option) => !resolvedBefore.has(option));
  for (const option of stillOnly) t.true(used.has(option), `no golden card uses ${option}`);

  const ranks = inputs.map((input) => input.options.rankData).filter((rank) => rank !== undefined);
  for (const place of [1, 2, 3]) t.true(ranks.some((rank) => rank.rank === place && rank.autoColorRank), `no golden card at rank ${place}`);
  t.true(ranks.some((rank) => rank.currentXp === 0), 'no golden card with 0 XP');
  t.true(ranks.some((rank) => rank.currentXp >= rank.requiredXp), 'no golden card with a full bar');
  t.true(inputs.some((input) => input.options.squareAvatar === true));
  t.true(inputs.some((input) => input.options.removeBorder === true));
  t.true(inputs.some((input) => !input.profile.banner && !input.images?.background && input.profile.avatar), 'no card with an avatar but no banner');
  t.true(inputs.some((input) => !input.profile.avatar), 'no card with the default avatar');
  t.true(inputs.some((input) => (input.images?.customBadges?.length ?? 0) > 0));
  const names = inputs.map((input) => input.options.customUsername ?? '');
  t.true(names.some((name) => /\p{Extended_Pictographic}/u.test(name)), 'no emoji name');
  t.true(names.some((name) => /\p{Script=Han}/u.test(name)), 'no CJK name');
  t.true(names.some((name) => /\p{Script=Arabic}/u.test(name)), 'no right-to-left name');
  t.true(names.some((name) => /\p{M}/u.test(name.normalize('NFD'))), 'no name with combining marks');
});

test('a render with removeBadges does not pass for the badge card', async (t) => {
  const input = sampleInput('every-badge');
  const { comparison } = await againstGolden('every-badge', { ...input, options: { ...input.options, removeBadges: true } });
  t.false(comparison.matches, `only ${comparison.differentPixels} pixels differ`);
});

test('one missing badge out of one fails', async (t) => {
  const input = sampleInput('verified-bot');
  const { comparison } = await againstGolden('verified-bot', { ...input, options: { removeBadges: true } });
  t.false(comparison.matches, `only ${comparison.differentPixels} pixels differ`);
});

test('one changed letter in the tag fails', async (t) => {
  const input = sampleInput('newcomer-defaults');
  const { comparison } = await againstGolden('newcomer-defaults', { ...input, options: { customTag: '@newcamer' } });
  t.false(comparison.matches, `only ${comparison.differentPixels} pixels differ`);
});

test('a line of text moved down by 2 px fails', async (t) => {
  const rendered = decodePng((await renderCard(sampleInput('newcomer-defaults'))).png);
  // The tag line "@newcomer" sits in this band; copy it 2 px lower, bottom row first.
  const [left, right, top, bottom] = [272, 420, 150, 178];
  for (let y = bottom; y >= top; y -= 1) {
    const from = (y - 2) * rendered.width * 4;
    const to = y * rendered.width * 4;
    rendered.data.copyWithin(to + left * 4, from + left * 4, from + right * 4);
  }
  const comparison = compareImages(rendered, golden('newcomer-defaults'));
  t.false(comparison.matches, `only ${comparison.differentPixels} pixels differ`);
});

test('caches do not change a single pixel: a cold and a warm render are byte-identical', async (t) => {
  const input = sampleInput('custom-everything');
  clearCardCaches();
  const cold = await renderCard(input);
  const warm = await renderCard(input);
  t.true(cold.png.equals(warm.png));
});

async function downscaled(png: Buffer): Promise<PNG> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width / 2, image.height / 2);
  const context = canvas.getContext('2d');
  context.patternQuality = 'best';
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return decodePng(canvas.toBuffer('image/png'));
}

test('scale 2 draws the 1x layout at twice the size, and the check would see a missing badge', async (t) => {
  const input = sampleInput('hidpi');
  t.is(input.scale, 2);
  const hidpi = await renderCard(input);
  t.deepEqual([hidpi.width, hidpi.height], [1800, 600]);
  const oneX = decodePng((await renderCard({ ...input, scale: 1 })).png);
  const same = compareImages(await downscaled(hidpi.png), oneX, HIDPI_TOLERANCE);
  t.true(same.matches, `${same.differentPixels} pixels differ`);

  const fewerBadges = await renderCard({ ...input, profile: { ...input.profile, badges: input.profile.badges?.slice(1) } });
  const different = compareImages(await downscaled(fewerBadges.png), oneX, HIDPI_TOLERANCE);
  t.false(different.matches, `only ${different.differentPixels} pixels differ`);
});

test('the request\'s scale 2 draws every layout and the leaderboard at twice the size from the same design', async (t) => {
  for (const name of ['welcome-square-badges', 'welcome-goodbye-photo', 'levelup-photo', 'custom-everything']) {
    const input = sampleInput(name);
    const oneX = await renderCard(input);
    const hidpi = await renderCard({ ...input, options: cardOptionsSchema.parse({ ...input.options, scale: 2 }) });
    t.deepEqual([hidpi.width, hidpi.height], [1800, 600], name);
    t.deepEqual(hidpi.texts, oneX.texts, `${name}: the same layout`);
    // Pixel for pixel (scaled down) only for the profile card: the welcome name's 64 px and the
    // level-up's 92 px glyphs are hinted differently at twice the size (606 and 777 px differ, over
    // the 324 the HiDPI bound allows), and a photo softened at 1800x600 can measure lighter behind
    // the text and get a darker panel (899 px). Their layout, above, is the same.
    if (name === 'custom-everything') {
      const same = compareImages(await downscaled(hidpi.png), decodePng(oneX.png), HIDPI_TOLERANCE);
      t.true(same.matches, `${name}: ${same.differentPixels} pixels differ`);
    }
  }
  for (const board of GOLDEN_LEADERBOARDS) {
    const oneX = await renderLeaderboardCard(board.input);
    const hidpi = await renderLeaderboardCard({ ...board.input, options: { ...board.input.options, scale: 2 } });
    t.deepEqual([hidpi.width, hidpi.height], [oneX.width * 2, oneX.height * 2], board.name);
    t.deepEqual(hidpi.texts, oneX.texts, `${board.name}: the same layout`);
    const same = compareImages(await downscaled(hidpi.png), decodePng(oneX.png), HIDPI_TOLERANCE);
    t.true(same.matches, `${board.name}: ${same.differentPixels} pixels differ (${(same.share * 100).toFixed(3)} %)`);
  }
  t.false(cardOptionsSchema.safeParse({ scale: 3 }).success);
  t.deepEqual(cardOptionsSchema.safeParse({ scale: 1.5 }).error?.issues.map((issue) => issue.message), ['must be 1 or 2']);
});

/**
 * 8x8 blocks in which `actual` is on average clearly darker than `reference` (luma drop over 10 of
 * 255). Averaging over a block lets the scattered edge pixels where text hinting differs between
 * sizes cancel out, while a blurred shadow box darkens every pixel of its blocks.
 */
function darkenedBlocks(actual: PNG, reference: PNG): number {
  const block = 8;
  const luma = (data: Buffer, index: number) => 0.299 * (data[index] ?? 0) + 0.587 * (data[index + 1] ?? 0) + 0.114 * (data[index + 2] ?? 0);
  let count = 0;
  for (let top = 0; top + block <= actual.height; top += block) {
    for (let left = 0; left + block <= actual.width; left += block) {
      let drop = 0;
      for (let y = top; y < top + block; y += 1) {
        for (let x = left; x < left + block; x += 1) {
          const index = (y * actual.width + x) * 4;
          drop += luma(reference.data, index) - luma(actual.data, index);
        }
      }
      if (drop / (block * block) > 10) count += 1;
    }
  }
  return count;
}

test('scale 2 emoji under the text shadow: no dark shadow box the 1x card lacks', async (t) => {
  const input = sampleInput(HIDPI_EMOJI_CARD);
  t.is(input.scale, 2);
  const hidpi = await downscaled((await renderCard(input)).png);
  const oneX = decodePng((await renderCard({ ...input, scale: 1 })).png);
  // node-canvas's drawImage shadow under a transform left a dark box below-right of every emoji:
  // 93 darkened blocks on this card (6 emoji). Without it, 12, on glyph edges, as on the emoji-free
  // HiDPI card.
  const darkened = darkenedBlocks(hidpi, oneX);
  t.true(darkened < 40, `${darkened} 8x8 blocks are darker at 2x than at 1x`);
});

for (const board of GOLDEN_LEADERBOARDS) {
  test(`${board.name} matches its golden`, async (t) => {
    t.true(existsSync(goldenPath(board.name)), `no golden for ${board.name}: ${REGENERATE}`);
    const rendered = await renderLeaderboardCard(board.input);
    const comparison = compareImages(decodePng(rendered.png), golden(board.name));
    if (!comparison.matches) t.fail(`${board.name} differs from its golden in ${comparison.differentPixels} pixels (${percent(comparison.share)}); actual and diff in ${saveMismatch(board.name, rendered.png, comparison)}; ${REGENERATE}`);
    else t.pass();
  });
}
