import { type LeaderboardInput, renderCard, renderLeaderboardCard, type RenderedCard } from '@utility-api/card';
import type { CardInput } from '@utility-api/card';
import { benchCardSets, distinctBenchCard } from '../../packages/card/samples/bench-cards.ts';
import { sampleLandscapeJpeg } from '../../packages/card/samples/sample-images.ts';
import { SAMPLE_LEADERBOARDS } from '../../packages/card/samples/sample-leaderboards.ts';
import { CARDS_PER_CPU_ROUND, type CpuPerCard } from './card-render.ts';
import { percentile } from './stats.ts';

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
  /** The layout's CPU over the standard card's in the same round, over the rounds. */
  ratioSpread: { min: number; median: number; max: number };
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

/**
 * Interleaved: every round renders CARDS_PER_CPU_ROUND cards of each layout in turn, so a burst of
 * load from elsewhere on the shared machine falls on every layout alike, and the ratio to the
 * standard card is taken round by round (its spread is in `ratioSpread`). Measured one layout after
 * the other, the same build read from 1.8x to 2.3x for the ten-row board.
 */
export async function benchLayouts(options: { renders: number; warmup: number }): Promise<LayoutCost[]> {
  const all = layouts();
  for (const layout of all) for (let index = 0; index < options.warmup; index += 1) await layout.render(-index - 1);
  const perRound = all.map(() => [] as number[]);
  const bytes = all.map(() => 0);
  const rounds = Math.max(1, Math.round(options.renders / CARDS_PER_CPU_ROUND));
  let index = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (const [position, layout] of all.entries()) {
      const started = process.cpuUsage();
      for (let card = 0; card < CARDS_PER_CPU_ROUND; card += 1) bytes[position]! += (await layout.render(index++)).png.length;
      const used = process.cpuUsage(started);
      perRound[position]!.push((used.user + used.system) / 1000 / CARDS_PER_CPU_ROUND);
    }
  }
  const standardRounds = perRound[0]!;
  const standard = percentile(standardRounds, 0.5);
  return all.map((layout, position) => {
    const values = perRound[position]!;
    const ratios = values.map((value, round) => value / standardRounds[round]!);
    return {
      name: layout.name,
      cpuMs: { median: percentile(values, 0.5), min: Math.min(...values), max: Math.max(...values), rounds },
      ratio: percentile(values, 0.5) / standard,
      ratioSpread: { min: Math.min(...ratios), median: percentile(ratios, 0.5), max: Math.max(...ratios) },
      pngKb: bytes[position]! / (rounds * CARDS_PER_CPU_ROUND) / 1024,
      exempt: layout.exempt === true,
    };
  });
}

export function formatLayoutTable(costs: readonly LayoutCost[]): string[] {
  return [
    '| layout | CPU ms per card, median (min-max over rounds) | x standard | x standard per round, median (min-max) | PNG KB |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...costs.map(
      (cost) =>
        `| ${cost.name}${cost.exempt ? ' (may exceed 2x)' : ''} | ${cost.cpuMs.median.toFixed(1)} (${cost.cpuMs.min.toFixed(1)}-${cost.cpuMs.max.toFixed(1)}) | ${cost.ratio.toFixed(2)}${!cost.exempt && cost.ratio > 2 ? ' **over 2x**' : ''} | ${cost.ratioSpread.median.toFixed(2)} (${cost.ratioSpread.min.toFixed(2)}-${cost.ratioSpread.max.toFixed(2)}) | ${cost.pngKb.toFixed(0)} |`,
    ),
  ];
}
