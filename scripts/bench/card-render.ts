import { prepareCardFonts, renderAnimatedCard, renderCard } from '@utility-api/card';
import { animatedBenchCard } from '../../packages/card/samples/animated-sources.ts';
import { benchCardSets, distinctBenchCard } from '../../packages/card/samples/bench-cards.ts';
import { measureCardFormats, type BenchCard, type FormatCost } from './card-formats.ts';
import { percentile } from './stats.ts';

const optionSets = benchCardSets;
const distinct = distinctBenchCard;

export interface Spread {
  median: number;
  p95: number;
}

/** CPU milliseconds per card (user + system, every thread of this process) over rounds of cards. */
export interface CpuPerCard {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/** Cards per CPU reading: /proc-style CPU time is coarse, so one card alone would read 0 or 10 ms. */
export const CARDS_PER_CPU_ROUND = 10;

/**
 * Measures CPU per card in rounds of CARDS_PER_CPU_ROUND: call `startCard` before each card.
 * Wall-clock times on the shared 2-core machine swing with other work; CPU time swings much less,
 * and the spread over rounds shows how much.
 */
export function cpuRounds(): { startCard(): void; finish(): CpuPerCard } {
  const perCard: number[] = [];
  let roundStart: NodeJS.CpuUsage | undefined;
  let inRound = 0;
  const close = () => {
    if (roundStart === undefined || inRound === 0) return;
    const used = process.cpuUsage(roundStart);
    perCard.push((used.user + used.system) / 1000 / inRound);
  };
  return {
    startCard() {
      if (inRound === CARDS_PER_CPU_ROUND) {
        close();
        inRound = 0;
        roundStart = undefined;
      }
      roundStart ??= process.cpuUsage();
      inRound += 1;
    },
    finish() {
      close();
      return { median: percentile(perCard, 0.5), min: Math.min(...perCard), max: Math.max(...perCard), rounds: perCard.length };
    },
  };
}

export interface CardRenderMeasurement {
  set: string;
  description: string;
  renders: number;
  drawMs: Spread;
  encodeMs: Spread;
  /** Draw plus encode of the same render; image decoding (prepare) is not part of it. */
  drawEncodeMs: Spread;
  prepareMs: Spread;
  pngBytes: number;
  /** CPU per card (prepare, draw and PNG encode: the whole renderCard), over rounds of cards. */
  cpuMs: CpuPerCard;
  /** Each stored format of the set's first `formatCards` cards. */
  formats: FormatCost[];
}

const spread = (values: number[]): Spread => ({ median: percentile(values, 0.5), p95: percentile(values, 0.95) });

export async function benchCardRender(options: { renders: number; warmup: number; formatCards: number; progress: (line: string) => void }): Promise<CardRenderMeasurement[]> {
  prepareCardFonts();
  const results: CardRenderMeasurement[] = [];
  for (const set of optionSets()) {
    for (let index = 0; index < options.warmup; index += 1) await renderCard(distinct(set.input, -index - 1));
    const draw: number[] = [];
    const encode: number[] = [];
    const drawEncode: number[] = [];
    const prepare: number[] = [];
    let bytes = 0;
    const kept: BenchCard[] = [];
    const cpu = cpuRounds();
    for (let index = 0; index < options.renders; index += 1) {
      cpu.startCard();
      const card = await renderCard(distinct(set.input, index));
      if (kept.length < options.formatCards) kept.push({ png: card.png, pngEncodeMs: card.timings.encode });
      draw.push(card.timings.draw);
      encode.push(card.timings.encode);
      drawEncode.push(card.timings.draw + card.timings.encode);
      prepare.push(card.timings.prepare);
      bytes += card.png.length;
    }
    const result: CardRenderMeasurement = {
      set: set.name,
      description: set.description,
      renders: options.renders,
      drawMs: spread(draw),
      encodeMs: spread(encode),
      drawEncodeMs: spread(drawEncode),
      prepareMs: spread(prepare),
      pngBytes: Math.round(bytes / options.renders),
      // Read before the format measurements below, which run in this process too.
      cpuMs: cpu.finish(),
      formats: await measureCardFormats(kept),
    };
    results.push(result);
    options.progress(
      `card render: ${set.name}: CPU ${result.cpuMs.median.toFixed(2)} ms/card (${result.cpuMs.min.toFixed(2)}-${result.cpuMs.max.toFixed(2)} over ${result.cpuMs.rounds} rounds), draw+encode median ${result.drawEncodeMs.median.toFixed(1)} ms, p95 ${result.drawEncodeMs.p95.toFixed(1)} ms, ${(result.pngBytes / 1024).toFixed(0)} KB; ` +
        result.formats.map((cost) => `${cost.format} ${cost.encodeMs.median.toFixed(0)} ms ${(cost.bytes / 1024).toFixed(0)} KB`).join(', '),
    );
  }
  return results;
}

export interface AnimatedCardMeasurement {
  format: 'webp' | 'gif';
  renders: number;
  frames: number;
  totalMs: Spread;
  timings: { prepare: number; draw: number; encode: number };
  bytes: number;
}

/**
 * The animated bench card (the "photo + rank" set with a 24-frame GIF avatar and a 40-frame WebP
 * background) as animated WebP and GIF, whole `renderAnimatedCard` calls, each render distinct.
 * Animations are not cached, so every render decodes every frame again.
 */
export async function benchAnimatedCard(options: { renders: number }): Promise<AnimatedCardMeasurement[]> {
  prepareCardFonts();
  const set = optionSets()[1];
  if (!set) throw new Error('no "photo + rank" bench set');
  const input = await animatedBenchCard(set.input);
  const results: AnimatedCardMeasurement[] = [];
  for (const format of ['webp', 'gif'] as const) {
    const totals: number[] = [];
    let last: Awaited<ReturnType<typeof renderAnimatedCard>> | undefined;
    for (let index = 0; index < options.renders; index += 1) {
      const started = performance.now();
      last = await renderAnimatedCard(distinct(input, index), { format });
      totals.push(performance.now() - started);
    }
    if (!last?.animated) throw new Error('the animated bench card did not animate');
    results.push({ format, renders: options.renders, frames: last.frames, totalMs: spread(totals), timings: last.timings, bytes: last.bytes.length });
  }
  return results;
}
