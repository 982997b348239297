/**
 * What the leaderboard keeps between boards to cost less (packages/card/src/leaderboard/
 * render-leaderboard.ts): the last 1x board's canvas is drawn on again, the veiled background,
 * round avatars, boxes and repeated texts come from cached layers, and the pixels behind each
 * text are read once per background. None of it may leak from one board into the next: a board
 * drawn after others, on the reused canvas and from warm caches, has the pixels it has drawn first
 * in a fresh process state (caches emptied).
 */
import test from 'ava';
import { clearCardCaches, renderLeaderboardCard, type LeaderboardInput } from '../../../packages/card/src/index.ts';
import { SAMPLE_LEADERBOARDS } from '../../../packages/card/samples/sample-leaderboards.ts';
import { compareImages, decodePng } from '../../support/card/golden-images.ts';

const sample = (name: string): LeaderboardInput => {
  const found = SAMPLE_LEADERBOARDS.find((entry) => entry.name === name);
  if (!found) throw new Error(`no sample board ${name}`);
  return found.input;
};

test('a board drawn after other boards (reused canvas, warm layers) has the pixels of the same board drawn cold', async (t) => {
  const boards = SAMPLE_LEADERBOARDS.map((entry) => entry.input);
  const cold = new Map<LeaderboardInput, Buffer>();
  for (const input of boards) {
    clearCardCaches();
    cold.set(input, (await renderLeaderboardCard(input)).png);
  }
  // Warm, in another order, with a 2x board and a highlighted member's own row in between.
  const top10 = sample('leaderboard-top10-highlight-extra');
  const sequence = [...boards].reverse().flatMap((input) => [input, { ...top10, options: { ...top10.options, scale: 2 as const } }, input]);
  for (const input of sequence) {
    const warm = await renderLeaderboardCard(input);
    const expected = cold.get(input);
    if (!expected) continue;
    const comparison = compareImages(decodePng(warm.png), decodePng(expected));
    t.is(comparison.differentPixels, 0, `${SAMPLE_LEADERBOARDS.find((entry) => entry.input === input)?.name}: ${comparison.differentPixels} pixels differ`);
  }
});
