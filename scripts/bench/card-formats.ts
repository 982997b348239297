import { MEDIA_FORMATS, type MediaFormat } from '@utility-api/render-jobs';
import { encodeCardImage } from '@utility-api/render-engine';
import { percentile } from './stats.ts';

/** A drawn card as the benchmarks keep it: its PNG and what encoding that PNG cost. */
export interface BenchCard {
  png: Buffer;
  pngEncodeMs: number;
}

/** What one format costs on one set's cards: encode time from the drawn canvas, and size. */
export interface FormatCost {
  format: MediaFormat;
  cards: number;
  /** PNG encode plus, for other formats, the render worker's re-encoding of that PNG. */
  encodeMs: { median: number; p95: number };
  bytes: number;
}

const FORMATS = Object.keys(MEDIA_FORMATS) as MediaFormat[];

/**
 * Every stored format of the same cards, encoded exactly as the render worker does
 * (`encodeCardImage`), one card at a time in this process.
 */
export async function measureCardFormats(cards: readonly BenchCard[]): Promise<FormatCost[]> {
  const costs: FormatCost[] = [];
  for (const format of FORMATS) {
    const times: number[] = [];
    let bytes = 0;
    for (const card of cards) {
      const started = performance.now();
      const encoded = await encodeCardImage(card.png, format);
      times.push(card.pngEncodeMs + performance.now() - started);
      bytes += encoded.length;
    }
    costs.push({ format, cards: cards.length, encodeMs: { median: percentile(times, 0.5), p95: percentile(times, 0.95) }, bytes: Math.round(bytes / cards.length) });
  }
  return costs;
}

/** The markdown table both `pnpm card:bench` and `pnpm bench` print. */
export function formatCostTable(sets: readonly { set: string; formats: readonly FormatCost[] }[]): string[] {
  return [
    '| set | format | cards | encode ms med / p95 | KB | % of PNG |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...sets.flatMap(({ set, formats }) => {
      const pngBytes = formats.find((cost) => cost.format === 'png')?.bytes ?? Number.NaN;
      return formats.map(
        (cost) =>
          `| ${set} | ${cost.format} | ${cost.cards} | ${cost.encodeMs.median.toFixed(1)} / ${cost.encodeMs.p95.toFixed(1)} | ${(cost.bytes / 1024).toFixed(1)} | ${((100 * cost.bytes) / pngBytes).toFixed(0)} |`,
      );
    }),
  ];
}
