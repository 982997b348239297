import { prepareCardFonts, renderCard, type CardInput } from '@utility-api/card';
import { SAMPLE_CARDS } from '../../packages/card/samples/sample-cards.ts';
import { percentile } from './stats.ts';

/**
 * The three option sets of `pnpm card:bench` (scripts/card-bench.ts, which exports nothing to
 * import), timed the same way: distinct cards (name and XP change every render, so no two PNGs
 * are alike) after a warm-up, with the caches a renderer has doing their job.
 */
function sample(name: string): CardInput {
  const found = SAMPLE_CARDS.find((card) => card.name === name);
  if (!found) throw new Error(`no sample card named ${name}`);
  return found.input;
}

function optionSets(): { name: string; description: string; input: CardInput }[] {
  const banner = sample('banner-rank-badges');
  const everything = sample('custom-everything');
  return [
    { name: 'minimal', description: 'no images, no options: generated background, default avatar', input: sample('newcomer-defaults') },
    {
      name: 'photo + rank',
      description: 'custom background photo, avatar, rank block, badges',
      input: { ...banner, options: { ...banner.options, customBackground: 'https://example.com/landscape.jpg' }, images: { background: banner.profile.banner } },
    },
    {
      name: 'everything',
      description: 'custom background, custom badges after profile badges, decoration, subtitle, rank, emoji name',
      input: {
        ...everything,
        profile: { ...everything.profile, avatarDecoration: sample('decoration-offline').profile.avatarDecoration },
        options: {
          ...everything.options,
          overwriteBadges: true,
          badgesFrame: true,
          rankData: { currentXp: 1240, requiredXp: 5000, level: 12, rank: 3, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true },
        },
      },
    },
  ];
}

/** The same card with a different name and XP each time, so every PNG is a new picture. */
function distinct(input: CardInput, index: number): CardInput {
  const rankData = input.options.rankData ? { ...input.options.rankData, currentXp: 1000 + index * 7 } : undefined;
  return { ...input, options: { ...input.options, customUsername: `Member ${index} ✨`, ...(rankData ? { rankData } : {}) } };
}

export interface Spread {
  median: number;
  p95: number;
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
}

const spread = (values: number[]): Spread => ({ median: percentile(values, 0.5), p95: percentile(values, 0.95) });

export async function benchCardRender(options: { renders: number; warmup: number; progress: (line: string) => void }): Promise<CardRenderMeasurement[]> {
  prepareCardFonts();
  const results: CardRenderMeasurement[] = [];
  for (const set of optionSets()) {
    for (let index = 0; index < options.warmup; index += 1) await renderCard(distinct(set.input, -index - 1));
    const draw: number[] = [];
    const encode: number[] = [];
    const drawEncode: number[] = [];
    const prepare: number[] = [];
    let bytes = 0;
    for (let index = 0; index < options.renders; index += 1) {
      const card = await renderCard(distinct(set.input, index));
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
    };
    results.push(result);
    options.progress(
      `card render: ${set.name}: draw+encode median ${result.drawEncodeMs.median.toFixed(1)} ms, p95 ${result.drawEncodeMs.p95.toFixed(1)} ms, ${(result.pngBytes / 1024).toFixed(0)} KB`,
    );
  }
  return results;
}
