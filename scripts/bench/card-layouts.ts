import { type LeaderboardInput, renderCard, renderLeaderboardCard, type RenderedCard } from '@utility-api/card';
import type { CardInput } from '@utility-api/card';
import { benchCardSets, distinctBenchCard } from '../../packages/card/samples/bench-cards.ts';
import { sampleLandscapeJpeg } from '../../packages/card/samples/sample-images.ts';
import { SAMPLE_LEADERBOARDS } from '../../packages/card/samples/sample-leaderboards.ts';
import { cpuRounds, type CpuPerCard } from './card-render.ts';

/**
 * Render CPU per card of every layout against the standard card (the profile card on a photo with
 * a rank block, the bench's "photo + rank"), caches warm, every card distinct (another name each
 * render). Issue 34's bound: no layout above 2x the standard card, the leaderboard on a background
 * photo excepted; `scale: 2` draws 4x the pixels of its layout and is not bound either. Their
 * figures are printed all the same.
 */
export interface LayoutCost {
  name: string;
  cpuMs: CpuPerCard;
  /** The layout's median over the standard card's. */
  ratio: number;
  pngKb: number;
  /** Allowed above 2x (the leaderboard on a background photo). */
  exempt: boolean;
}

type Layout = { name: string; exempt?: boolean; render: (index: number) => Promise<RenderedCard> };

function layouts(): Layout[] {
  const standard = benchCardSets()[1]!.input;
  const card = (name: string, options: Partial<CardInput['options']>): Layout => ({
    name,
    render: (index) => renderCard(distinctBenchCard({ ...standard, options: { ...standard.options, ...options } }, index)),
  });
  const board = (sample: string, change: (input: LeaderboardInput) => LeaderboardInput = (input) => input): ((index: number) => Promise<RenderedCard>) => {
    const input = change(SAMPLE_LEADERBOARDS.find((entry) => entry.name === sample)!.input);
    return (index) => {
      const [first, ...rest] = input.options.rows;
      return renderLeaderboardCard({ ...input, options: { ...input.options, rows: [{ ...first!, name: `Member ${index} ✨` }, ...rest] } });
    };
  };
  const photo = sampleLandscapeJpeg();
  return [
    card('profile, photo + rank (standard)', {}),
    card('welcome', { layout: 'welcome', message: 'You are member #1,234' }),
    card('levelup', { layout: 'levelup', message: 'Keep chatting!' }),
    card('welcome-tall (960x540)', { layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234' }),
    { ...card('profile, scale 2', { scale: 2 }), exempt: true },
    { ...card('welcome, scale 2', { layout: 'welcome', scale: 2 }), exempt: true },
    { ...card('welcome-tall, scale 2 (1920x1080)', { layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234', scale: 2 }), exempt: true },
    { name: 'leaderboard, five rows', render: board('leaderboard-top10-highlight-extra', (input) => ({ ...input, options: { ...input.options, rows: input.options.rows.slice(0, 5), highlight: undefined } })) },
    { name: 'leaderboard, ten rows + extra row', render: board('leaderboard-top10-highlight-extra') },
    { name: 'leaderboard, podium + server header', render: board('leaderboard-podium-guild') },
    { name: 'leaderboard, ten rows on a background photo', exempt: true, render: board('leaderboard-top10-highlight-extra', (input) => ({ ...input, background: photo })) },
    { name: 'leaderboard, scale 2', exempt: true, render: board('leaderboard-top10-highlight-extra', (input) => ({ ...input, options: { ...input.options, scale: 2 } })) },
  ];
}

export async function benchLayouts(options: { renders: number; warmup: number }): Promise<LayoutCost[]> {
  const measured: Omit<LayoutCost, 'ratio'>[] = [];
  for (const layout of layouts()) {
    for (let index = 0; index < options.warmup; index += 1) await layout.render(-index - 1);
    const cpu = cpuRounds();
    let bytes = 0;
    for (let index = 0; index < options.renders; index += 1) {
      cpu.startCard();
      bytes += (await layout.render(index)).png.length;
    }
    measured.push({ name: layout.name, cpuMs: cpu.finish(), pngKb: bytes / options.renders / 1024, exempt: layout.exempt === true });
  }
  const standard = measured[0]!.cpuMs.median;
  return measured.map((cost) => ({ ...cost, ratio: cost.cpuMs.median / standard }));
}

export function formatLayoutTable(costs: readonly LayoutCost[]): string[] {
  return [
    '| layout | CPU ms per card, median (min-max over rounds) | x standard | PNG KB |',
    '| --- | ---: | ---: | ---: |',
    ...costs.map(
      (cost) =>
        `| ${cost.name}${cost.exempt ? ' (may exceed 2x)' : ''} | ${cost.cpuMs.median.toFixed(1)} (${cost.cpuMs.min.toFixed(1)}-${cost.cpuMs.max.toFixed(1)}) | ${cost.ratio.toFixed(2)}${!cost.exempt && cost.ratio > 2 ? ' **over 2x**' : ''} | ${cost.pngKb.toFixed(0)} |`,
    ),
  ];
}
