import { renderPoolEnvironmentShape } from '@utility-api/render-engine/config';
import test from 'ava';
import type { Sharp } from 'sharp';
import { checkAnimation } from '../../../../packages/card/src/images/decode-animation.ts';
import { ANIMATION_CAPS, renderAnimatedCard } from '../../../../packages/card/src/index.ts';
import { CardImageError } from '../../../../packages/card/src/images/card-image-error.ts';
import { CardPixelBudget } from '../../../../packages/card/src/images/decode-image.ts';
import { animatedImage, type Rgba } from '../../../fixtures/images.ts';
import { animatedBenchCard } from '../../../../packages/card/samples/animated-sources.ts';
import { benchCardSets } from '../../../../packages/card/samples/bench-cards.ts';
import { webpmuxInfo } from '../../../support/card/animation/animated-fixtures.ts';

/** The worker's default budget for an animated card (RENDER_ANIMATED_TIME_BUDGET_MS). */
const ANIMATED_TIME_BUDGET_MS = renderPoolEnvironmentShape.RENDER_ANIMATED_TIME_BUDGET_MS.parse(undefined);

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };
const shade = (index: number): Rgba => [(index * 37) % 256, (index * 91) % 256, (index * 13) % 256, 255];
const untouched = (image: Sharp) => image;

test("each later frame is charged to the card's pixel budget: what it cannot pay for is cut, not refused", async (t) => {
  const gif = await animatedImage('gif', { width: 40, height: 30 }, Array.from({ length: 12 }, (_, index) => shade(index)), Array.from({ length: 12 }, () => 100));
  // The first frame is the still path's to charge; 5 more frames' worth are left.
  const budget = new CardPixelBudget(40 * 30 * 5 + 7);
  const animation = await (await checkAnimation(gif, { field: 'avatar', budget, transform: untouched, drawnPixels: 40 * 30 }))?.();
  t.is(animation?.frames.length, 6);
  t.deepEqual(animation?.delaysMs, [100, 100, 100, 100, 100, 100]);
  // Nothing is left for another image.
  t.throws(() => budget.charge('customBadges.0', 1, 8), { instanceOf: CardImageError });
  const broke = await checkAnimation(gif, { field: 'avatar', budget: new CardPixelBudget(10), transform: untouched, drawnPixels: 40 * 30 });
  t.is(broke, undefined, 'with no budget for a second frame the image is drawn still');
});

test('a truncated animation plays the frames libvips could read whole', async (t) => {
  const gif = await animatedImage('gif', { width: 40, height: 30 }, [shade(1), shade(2), shade(3)], [100, 100, 100]);
  const cut = gif.subarray(0, Math.round(gif.length * 0.7));
  const animation = await (await checkAnimation(cut, { field: 'avatar', budget: new CardPixelBudget(), transform: untouched, drawnPixels: 1200 }))?.();
  t.is(animation?.frames.length, 2);
});

test('a 500-frame background is sampled to the frame cap, quickly and in bounded memory', async (t) => {
  const frames = 500;
  const background = await animatedImage('webp', { width: 300, height: 100 }, Array.from({ length: frames }, (_, index) => shade(index)), Array.from({ length: frames }, () => 20));
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const card = await renderAnimatedCard({ profile: PROFILE, options: {}, images: { background } }, { format: 'webp' });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  t.true(card.animated);
  t.true(card.frames <= ANIMATION_CAPS.maxFrames, `${card.frames} frames`);
  t.true(card.frames >= 20);
  const info = webpmuxInfo(card.bytes);
  t.is(info.frames, card.frames);
  // Sampled, not sped up: every output frame lasts whole source frames of 20 ms.
  t.true(info.durationsMs.every((duration) => duration % 20 === 0 && duration >= 20));
  t.true(card.bytes.length <= ANIMATION_CAPS.maxBytes);
  t.log(`${card.frames} frames, ${info.durationsMs.reduce((sum, duration) => sum + duration, 0)} ms loop, ${ms.toFixed(0)} ms to render (${cpuMs.toFixed(0)} ms of CPU), RSS +${((peak - rssBefore) / 1048576).toFixed(0)} MiB, ${card.bytes.length} bytes, timings ${JSON.stringify(card.timings)}`);
  // Within the CPU time a render worker is given for an animated card (it is killed past it); CPU,
  // as the pool counts it, not wall time a loaded machine stretches. A quiet machine takes about a second.
  t.true(cpuMs < ANIMATED_TIME_BUDGET_MS, `${cpuMs} ms of CPU`);
  t.true(peak - rssBefore < 400 * 1024 * 1024, `RSS grew ${peak - rssBefore} bytes`);
});

test('the bench card (animated avatar, 40-frame background) is a small animated WebP', async (t) => {
  // Speed is `pnpm card:bench`'s to measure (1.5 s target on one core); tests share a loaded
  // machine, so this checks only what the card is. GIF output is checked on smaller cards.
  const input = await animatedBenchCard(benchCardSets()[1]!.input);
  const started = performance.now();
  const card = await renderAnimatedCard(input, { format: 'webp' });
  t.true(card.animated);
  t.true(card.frames >= 40 && card.frames <= ANIMATION_CAPS.maxFrames, `${card.frames} frames`);
  t.true(card.bytes.length <= ANIMATION_CAPS.maxBytes, `${card.bytes.length} bytes`);
  t.is(webpmuxInfo(card.bytes).frames, card.frames);
  t.log(`webp: ${card.frames} frames, ${(card.bytes.length / 1024).toFixed(0)} KB, ${(performance.now() - started).toFixed(0)} ms`);
});

test('over the byte cap the card is drawn again with half the frames, sampled anew from the same timing', async (t) => {
  const background = await animatedImage('webp', { width: 300, height: 100 }, Array.from({ length: 40 }, (_, index) => shade(index)), Array.from({ length: 40 }, () => 50));
  const input = { profile: PROFILE, options: {}, images: { background } };
  const full = await renderAnimatedCard(input, { format: 'webp' });
  t.is(full.frames, 40);
  const capped = await renderAnimatedCard(input, { format: 'webp', maxBytes: Math.floor(full.bytes.length * 0.7) });
  t.true(capped.frames <= 20, `${capped.frames} frames`);
  t.true(capped.bytes.length <= full.bytes.length * 0.7);
  // The loop keeps its length: fewer, longer frames, not a faster animation.
  t.is(capped.delaysMs.reduce((sum, delay) => sum + delay, 0), 2000);
  t.deepEqual(webpmuxInfo(capped.bytes).durationsMs, capped.delaysMs);
});
