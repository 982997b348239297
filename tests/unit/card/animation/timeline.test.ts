import test from 'ava';
import { ANIMATION_CAPS, framesWithinDuration, mergeTimelines, playedDelayMs } from '../../../../packages/card/src/animation/timeline.ts';

const WEBP = { maxFrames: ANIMATION_CAPS.maxFrames, stepMs: 1 };

test('delays play as browsers play them: 10 ms or less is 100 ms, nothing under 20 ms', (t) => {
  t.deepEqual([undefined, 0, 10, 11, 19, 20, 70.4].map(playedDelayMs), [100, 100, 100, 20, 20, 20, 70]);
});

test('one source keeps its own frames and delays', (t) => {
  const timeline = mergeTimelines([[100, 200, 300, 400]], WEBP);
  t.deepEqual(timeline, { startsMs: [0, 100, 300, 600], delaysMs: [100, 200, 300, 400], sourceFrames: [[0], [1], [2], [3]] });
});

test('two sources loop together after the least common multiple of their loops, each at its own times', (t) => {
  // 300 ms and 200 ms loops meet every 600 ms.
  const timeline = mergeTimelines([[150, 150], [100, 100]], WEBP);
  t.deepEqual(timeline.startsMs, [0, 100, 150, 200, 300, 400, 450, 500]);
  t.deepEqual(timeline.delaysMs.reduce((sum, delay) => sum + delay, 0), 600);
  t.deepEqual(timeline.sourceFrames, [[0, 0], [0, 1], [1, 1], [1, 0], [0, 1], [0, 0], [1, 0], [1, 1]]);
});

test('loops that would meet only after the cap use the longest loop, cut to the cap', (t) => {
  const timeline = mergeTimelines([[3001, 3001, 3001, 3001], [70, 70]], { maxFrames: 1000, stepMs: 1 });
  t.is(timeline.delaysMs.reduce((sum, delay) => sum + delay, 0), ANIMATION_CAPS.maxDurationMs);
});

test('more changes than the frame cap are sampled evenly, never sped up', (t) => {
  const timeline = mergeTimelines([Array.from({ length: 500 }, () => 20)], WEBP);
  t.true(timeline.delaysMs.length <= ANIMATION_CAPS.maxFrames);
  t.is(timeline.delaysMs.reduce((sum, delay) => sum + delay, 0), 10_000);
  // Each kept frame shows the source frame playing at that instant.
  for (const [index, start] of timeline.startsMs.entries()) t.is(timeline.sourceFrames[index]?.[0], Math.floor(start / 20));
});

test('GIF timelines sit on a 10 ms grid, so hundredths of a second never drift', (t) => {
  const timeline = mergeTimelines([[33, 33, 34], [45, 45]], { maxFrames: 60, stepMs: 10 });
  t.true(timeline.startsMs.every((start) => start % 10 === 0));
  t.true(timeline.delaysMs.every((delay) => delay % 10 === 0 && delay >= ANIMATION_CAPS.minFrameMs));
});

test('frames starting after the longest a card plays are not read', (t) => {
  t.is(framesWithinDuration(Array.from({ length: 800 }, () => 20)), 500);
  t.is(framesWithinDuration([100, 200]), 2);
});
