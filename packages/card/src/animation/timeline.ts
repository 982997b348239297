import { MAX_ANIMATION_MS } from '@utility-api/render-jobs';

/**
 * The caps every animated card keeps, and the rule that merges the moving layers' own frame times
 * into the one timeline the card plays (docs/card-design.md "Animated cards").
 */
export const ANIMATION_CAPS = {
  /** The longest an animated card plays before it loops; sources longer than this are cut. */
  maxDurationMs: MAX_ANIMATION_MS,
  /** The most frames an animated card has; beyond it, frame change times are sampled. */
  maxFrames: 60,
  /** The most output pixels (frames x card pixels): 60 frames at 1x, 15 at 2x, so encoding stays bounded. */
  maxOutputPixels: 60 * 900 * 300,
  /**
   * The shortest frame: browsers show GIF and WebP frames of 10 ms or less for 100 ms and clamp
   * the others to about 20 ms, so shorter output frames would only play slower than written.
   */
  minFrameMs: 20,
  /** The most bytes an encoded animation may take: well under Discord's 10 MiB upload limit (card-bytes.ts checks it). */
  maxBytes: 4 * 1024 * 1024,
} as const;

/**
 * A source frame's delay as browsers play it: 10 ms or less (0 included, which many GIFs carry)
 * shows for 100 ms, anything shorter than {@link ANIMATION_CAPS.minFrameMs} for that long.
 */
export function playedDelayMs(delay: number | undefined): number {
  if (delay === undefined || !Number.isFinite(delay) || delay <= 10) return 100;
  return Math.max(ANIMATION_CAPS.minFrameMs, Math.round(delay));
}

/** How many of a source's frames start within the longest the card plays: the rest are never read. */
export function framesWithinDuration(delaysMs: readonly number[]): number {
  let start = 0;
  for (const [index, delay] of delaysMs.entries()) {
    if (start >= ANIMATION_CAPS.maxDurationMs) return index;
    start += delay;
  }
  return delaysMs.length;
}

export interface Timeline {
  /** When each output frame starts, from 0, in ms. */
  startsMs: number[];
  /** How long each output frame shows, in ms; they add up to the card's loop. */
  delaysMs: number[];
  /** For each output frame, the frame each source shows at its start (indexes into the source's frames). */
  sourceFrames: number[][];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * One loop's length: all sources loop forever (as avatars and backgrounds do on Discord), so the
 * card loops after the least common multiple of their loops, which keeps every source in step at
 * the seam. When that is longer than the cap, the longest source's loop (cut to the cap) is used
 * and the shorter ones jump back to their start at the seam: they still never speed up or drift.
 */
function loopLength(cycles: readonly number[]): number {
  let common = 1;
  for (const cycle of cycles) {
    common = (common / gcd(common, cycle)) * cycle;
    if (common > ANIMATION_CAPS.maxDurationMs) return Math.min(ANIMATION_CAPS.maxDurationMs, Math.max(...cycles));
  }
  return common;
}

/** The source frame showing at `time`: its frames repeat every `cycle` ms. */
function frameAt(delays: readonly number[], cycle: number, time: number): number {
  let within = time % cycle;
  for (const [index, delay] of delays.entries()) {
    if (within < delay) return index;
    within -= delay;
  }
  return delays.length - 1;
}

/**
 * Merges the moving sources (each its frames' played delays, in ms) into one timeline. The rule:
 * an output frame starts wherever any source changes frame within one loop (the union of change
 * times), and shows every source as that source is at that instant, so each keeps its own timing.
 * Change times closer than the minimum gap are merged (the later change shows at the next kept
 * time): the gap is {@link ANIMATION_CAPS.minFrameMs}, or the loop divided by `maxFrames` when the
 * union has more frames than that, which samples the frames evenly instead of refusing them.
 * `stepMs` rounds every time to a grid (10 for GIF, whose delays are in hundredths of a second),
 * so the rounding never adds up to drift.
 */
export function mergeTimelines(sources: readonly (readonly number[])[], options: { maxFrames: number; stepMs: number }): Timeline {
  const cycles = sources.map((delays) => Math.max(1, delays.reduce((sum, delay) => sum + delay, 0)));
  const loop = Math.max(options.stepMs, Math.round(loopLength(cycles) / options.stepMs) * options.stepMs);
  const changes = new Set<number>([0]);
  for (const [index, delays] of sources.entries()) {
    const cycle = cycles[index] ?? 1;
    for (let cycleStart = 0; cycleStart < loop; cycleStart += cycle) {
      let time = cycleStart;
      for (const delay of delays) {
        if (time >= loop) break;
        changes.add(Math.round(time / options.stepMs) * options.stepMs);
        time += delay;
      }
    }
  }
  const sorted = [...changes].filter((time) => time < loop).sort((first, second) => first - second);
  const minGap = Math.max(ANIMATION_CAPS.minFrameMs, sorted.length > options.maxFrames ? loop / options.maxFrames : 0);
  const startsMs: number[] = [];
  for (const time of sorted) {
    const last = startsMs.at(-1);
    if (last === undefined || (time - last >= minGap && loop - time >= ANIMATION_CAPS.minFrameMs)) startsMs.push(time);
  }
  const delaysMs = startsMs.map((start, index) => (startsMs[index + 1] ?? loop) - start);
  const sourceFrames = startsMs.map((start) => sources.map((delays, index) => frameAt(delays, cycles[index] ?? 1, start)));
  return { startsMs, delaysMs, sourceFrames };
}
