import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Canvas, createCanvas, loadImage } from 'canvas';
import { cardCacheStats, clearCardCaches, PNG_ENCODING, prepareCardFonts, renderCard, type RenderedCard } from '@utility-api/card';
import { benchCardSets, distinctBenchCard } from '../packages/card/samples/bench-cards.ts';
import { formatCostTable, measureCardFormats, type BenchCard, type FormatCost } from './bench/card-formats.ts';
import { benchAnimatedCard, cpuRounds, type CpuPerCard } from './bench/card-render.ts';
import { benchLayouts, formatLayoutTable } from './bench/card-layouts.ts';

/**
 * `pnpm card:bench [--quick]`: times renderCard on three option sets and prints markdown tables.
 * - cold: the first render in this process (font registration, emoji glyphs, JIT);
 * - cached background: 200+ distinct cards per set (name and XP change every render, so no two
 *   PNGs are alike) after a warm-up, with the decoded-image and background caches doing their job;
 * - fresh background: caches emptied before every render, so each one decodes and softens its
 *   images (or generates its art), as the first card with a new banner, custom background or
 *   user does;
 * - PNG settings: the encode time and size of every zlib level and filter on these cards' pixels;
 * - animated: the "photo + rank" card with an animated GIF avatar (24 frames) and a 40-frame
 *   animated WebP background, as animated WebP and as GIF (whole renderAnimatedCard calls).
 * - layouts: CPU per card of every layout and the leaderboards against the standard card (the
 *   "photo + rank" profile card), scale 2 included (scripts/bench/card-layouts.ts);
 * - formats: what each stored format (PNG, WebP, AVIF, GIF) costs and weighs on the first
 *   FORMAT_CARDS cards of each set, encoded as the render worker does.
 * Results also go to bench-results/card.json. Takes about a minute on the 2-core machine.
 */
const quick = process.argv.includes('--quick');
const RENDERS = quick ? 40 : 220;
const WARMUP = quick ? 5 : 20;
const FRESH_RENDERS = quick ? 10 : 40;
const PNG_ROUNDS = quick ? 3 : 12;
const FORMAT_CARDS = quick ? 5 : 20;
const OUTPUT = resolve('bench-results/card.json');

const SETS = benchCardSets();
const distinct = distinctBenchCard;

interface Summary {
  median: number;
  p95: number;
}

function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95) };
}

interface Run {
  set: string;
  mode: 'cached background' | 'fresh background';
  renders: number;
  prepare: Summary;
  draw: Summary;
  encode: Summary;
  total: Summary;
  /** CPU per card (user + system, all threads of this process) over rounds of cards: steadier than wall time on a shared machine. */
  cpuMs: CpuPerCard;
  pngKb: number;
}

async function timeRenders(set: (typeof SETS)[number], mode: Run['mode'], count: number, offset: number, kept: BenchCard[] = []): Promise<{ run: Run; last: RenderedCard }> {
  const prepare: number[] = [];
  const draw: number[] = [];
  const encode: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  let last: RenderedCard | undefined;
  const cpu = cpuRounds();
  for (let index = 0; index < count; index += 1) {
    if (mode === 'fresh background') clearCardCaches();
    cpu.startCard();
    const started = performance.now();
    last = await renderCard(distinct(set.input, offset + index));
    if (mode === 'cached background' && kept.length < FORMAT_CARDS) kept.push({ png: last.png, pngEncodeMs: last.timings.encode });
    total.push(performance.now() - started);
    prepare.push(last.timings.prepare);
    draw.push(last.timings.draw);
    encode.push(last.timings.encode);
    bytes += last.png.length;
  }
  if (!last) throw new Error('no renders');
  const run: Run = {
    set: set.name,
    mode,
    renders: count,
    prepare: summarize(prepare),
    draw: summarize(draw),
    encode: summarize(encode),
    total: summarize(total),
    cpuMs: cpu.finish(),
    pngKb: bytes / count / 1024,
  };
  return { run, last };
}

const ms = (value: number) => value.toFixed(1);
const pair = (summary: Summary) => `${ms(summary.median)} / ${ms(summary.p95)}`;

// Cold: the very first card of the process, fonts included.
const coldStarted = performance.now();
prepareCardFonts();
const fontsMs = performance.now() - coldStarted;
const firstCard = await renderCard(distinct(SETS[2]!.input, 0));
const cold = { fontsMs, firstRenderMs: performance.now() - coldStarted - fontsMs, timings: firstCard.timings };

const runs: Run[] = [];
const lastCards = new Map<string, RenderedCard>();
const formatCards = new Map<string, BenchCard[]>();
for (const set of SETS) {
  for (let index = 0; index < WARMUP; index += 1) await renderCard(distinct(set.input, -index - 1));
  const kept: BenchCard[] = [];
  formatCards.set(set.name, kept);
  const cached = await timeRenders(set, 'cached background', RENDERS, 0, kept);
  runs.push(cached.run);
  lastCards.set(set.name, cached.last);
  runs.push((await timeRenders(set, 'fresh background', FRESH_RENDERS, RENDERS)).run);
}
const cacheStats = cardCacheStats();

// PNG settings, measured on the same pixels: each card is decoded back onto a canvas.
const FILTERS = [
  ['none', Canvas.PNG_FILTER_NONE],
  ['sub', Canvas.PNG_FILTER_SUB],
  ['up', Canvas.PNG_FILTER_UP],
  ['paeth', Canvas.PNG_FILTER_PAETH],
  ['all (adaptive)', Canvas.PNG_ALL_FILTERS],
] as const;
const LEVELS = [1, 2, 3, 4, 5, 6, 9] as const;
const canvases: Canvas[] = [];
for (const card of lastCards.values()) {
  const image = await loadImage(card.png);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  canvases.push(canvas);
}
const settings = LEVELS.flatMap((level) =>
  FILTERS
    // Level 9 takes a quarter to half a second a card: the two filters worth knowing are enough.
    .filter(([, value]) => level !== 9 || value === Canvas.PNG_FILTER_SUB || value === Canvas.PNG_ALL_FILTERS)
    .map(([filter, value]) => ({ level, filter, value, times: [] as number[], bytes: 0 })),
);
// Rounds go over every setting in turn, so a burst of load from elsewhere hits them all alike.
for (let round = 0; round < PNG_ROUNDS; round += 1) {
  for (const setting of settings) {
    if (setting.level === 9 && round > 0) continue;
    for (const canvas of canvases) {
      const started = performance.now();
      setting.bytes += canvas.toBuffer('image/png', { compressionLevel: setting.level, filters: setting.value }).length;
      setting.times.push(performance.now() - started);
    }
  }
}
const formats: { set: string; formats: FormatCost[] }[] = [];
for (const [set, cards] of formatCards) formats.push({ set, formats: await measureCardFormats(cards) });

const pngTable = settings.map((setting) => ({
  level: setting.level,
  filter: setting.filter,
  ms: summarize(setting.times).median,
  kb: setting.bytes / setting.times.length / 1024,
}));

// Animated cards: every render decodes all frames again (animations are not cached).
const ANIMATED_RENDERS = quick ? 2 : 8;
const animatedTable = await benchAnimatedCard({ renders: ANIMATED_RENDERS });

const LAYOUT_RENDERS = quick ? 20 : 60;
const layoutTable = await benchLayouts({ renders: LAYOUT_RENDERS, warmup: quick ? 3 : 10 });

const lines = [
  `## Card render benchmark (${quick ? 'quick' : 'full'})`,
  '',
  `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}; PNG zlib level ${PNG_ENCODING.compressionLevel}, filter ${PNG_ENCODING.filters}.`,
  '',
  `Cold: font registration ${ms(cold.fontsMs)} ms, first render ${ms(cold.firstRenderMs)} ms (prepare ${ms(cold.timings.prepare)}, draw ${ms(cold.timings.draw)}, encode ${ms(cold.timings.encode)}).`,
  '',
  '| set | mode | renders | CPU ms/card med (min-max over rounds of 10) | prepare ms med | draw ms med / p95 | encode ms med / p95 | total ms med / p95 | PNG KB |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...runs.map(
    (run) =>
      `| ${run.set} | ${run.mode} | ${run.renders} | ${run.cpuMs.median.toFixed(2)} (${run.cpuMs.min.toFixed(2)}-${run.cpuMs.max.toFixed(2)}) | ${ms(run.prepare.median)} | ${pair(run.draw)} | ${pair(run.encode)} | ${pair(run.total)} | ${run.pngKb.toFixed(0)} |`,
  ),
  '',
  `Caches after the run: decoded images ${cacheStats.decodedImages.entries} entries / ${(cacheStats.decodedImages.bytes / 1048576).toFixed(1)} MiB, backgrounds ${cacheStats.backgrounds.entries} / ${(cacheStats.backgrounds.bytes / 1048576).toFixed(1)} MiB, text measurements ${cacheStats.textMeasurements.entries} / ${(cacheStats.textMeasurements.bytes / 1048576).toFixed(2)} MiB (${cacheStats.textMeasurements.hits} hits, ${cacheStats.textMeasurements.misses} misses), static layers ${cacheStats.staticLayers.entries} / ${(cacheStats.staticLayers.bytes / 1048576).toFixed(1)} MiB.`,
  '',
  '| zlib level | filter | encode ms (median over the 3 cards) | KB (mean) |',
  '| ---: | --- | ---: | ---: |',
  ...pngTable.map((row) => `| ${row.level} | ${row.filter} | ${ms(row.ms)} | ${row.kb.toFixed(0)} |`),
  '',
  `Animated card (photo + rank, GIF avatar of 24 frames, WebP background of 40 frames), ${ANIMATED_RENDERS} renders per format:`,
  '',
  '| format | frames | total ms med / p95 | prepare ms | draw ms | encode ms | KB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...animatedTable.map((row) => `| ${row.format} | ${row.frames} | ${ms(row.totalMs.median)} / ${ms(row.totalMs.p95)} | ${ms(row.timings.prepare)} | ${ms(row.timings.draw)} | ${ms(row.timings.encode)} | ${(row.bytes / 1024).toFixed(0)} |`),
  '',
  `Layouts, ${LAYOUT_RENDERS} distinct cards each, caches warm; CPU per card against the standard card (the "photo + rank" profile card):`,
  '',
  ...formatLayoutTable(layoutTable),
  '',
  `Stored formats (\`format\`), ${FORMAT_CARDS} cards per set encoded as the render worker does; encode ms includes the PNG encode:`,
  '',
  ...formatCostTable(formats),
];
console.log(lines.join('\n'));

mkdirSync(dirname(OUTPUT), { recursive: true });
writeFileSync(
  OUTPUT,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadAverage: loadavg() },
      png: PNG_ENCODING,
      sets: SETS.map((set) => ({ name: set.name, description: set.description })),
      cold,
      runs,
      cacheStats,
      pngTable,
      animatedTable,
      layoutTable,
      formats,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${OUTPUT}`);
