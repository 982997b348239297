import test from 'ava';
import type { PNG } from 'pngjs';
import { renderCard } from '../../../packages/card/src/index.ts';
import { RANK } from '../../../packages/card/src/layout/card-layout.ts';
import type { RankData } from '@utility-api/render-jobs';
import { decodePng } from '../../support/card/golden-images.ts';

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };

const rank = (overrides: Partial<RankData>): RankData => ({
  currentXp: 0, requiredXp: 1, level: 12, rank: 3, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: false, ...overrides,
});

async function draw(rankData: RankData): Promise<PNG> {
  return decodePng((await renderCard({ profile: PROFILE, options: { rankData } })).png);
}

/** Rows of the LEVEL / RANK / XP text, above the bar (whose fill differs with the XP). */
const TEXT_ROWS = { from: RANK.rowBaseline - RANK.valueSize, to: RANK.barTop - 1 };

/** Pixels of the rank row's text whose RGBA differ at all. */
function differentTextPixels(actual: PNG, expected: PNG): number {
  let count = 0;
  for (let offset = TEXT_ROWS.from * expected.width * 4; offset < TEXT_ROWS.to * expected.width * 4; offset += 4) {
    if (actual.data.readUInt32BE(offset) !== expected.data.readUInt32BE(offset)) count += 1;
  }
  return count;
}

test('XP just short of the goal reads 999.9K / 1M, never the finished-looking 1M / 1M', async (t) => {
  const [almost, truncated, done] = await Promise.all([
    draw(rank({ currentXp: 999_950, requiredXp: 1_000_000 })),
    draw(rank({ currentXp: 999_900, requiredXp: 1_000_000 })),
    draw(rank({ currentXp: 1_000_000, requiredXp: 1_000_000 })),
  ]);
  t.is(differentTextPixels(almost, truncated), 0, '999 950 is drawn as 999.9K, like 999 900');
  t.true(differentTextPixels(almost, done) > 20, 'and not as 1M');
});

test('the largest XP reads 1Qa, and a level or rank just below a unit is not rounded up to it', async (t) => {
  const [largest, justBelow, whole] = await Promise.all([
    draw(rank({ currentXp: 1e15, requiredXp: 1e15 })),
    draw(rank({ currentXp: 999_999_999_999_999, requiredXp: 1e15 })),
    draw(rank({ currentXp: 999_900_000_000_000, requiredXp: 1e15 })),
  ]);
  t.is(differentTextPixels(justBelow, whole), 0, '999 999 999 999 999 reads 999.9T');
  t.true(differentTextPixels(largest, justBelow) > 20, '1e15 reads 1Qa, not 999.9T');
  const [level, levelTruncated] = await Promise.all([
    draw(rank({ level: 999_999_999, rank: 999_999_999_999, currentXp: 1e15, requiredXp: 1e15 })),
    draw(rank({ level: 999_900_000, rank: 999_900_000_000, currentXp: 1e15, requiredXp: 1e15 })),
  ]);
  t.is(differentTextPixels(level, levelTruncated), 0, 'level 999.9M and rank #999.9B, not 1B and #1T');
});
