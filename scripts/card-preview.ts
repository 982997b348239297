import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderCard, renderLeaderboardCard, type RenderedCard } from '@utility-api/card';
import { type Canvas, createCanvas, loadImage } from 'canvas';
import { SAMPLE_CARDS } from '../packages/card/samples/sample-cards.ts';
import { DISPLAY_WIDTH } from '../packages/card/src/layout/type-scale.ts';
import { GOLDEN_CARDS, GOLDEN_LEADERBOARDS } from '../tests/support/card/golden-images.ts';

/**
 * Writes every golden (every sample card and leaderboard) and an index.html gallery:
 * `pnpm card:preview [folder]` (default preview/cards). Views:
 * - each golden at full size beside the same picture at 400 px wide on Discord's chat grey (the
 *   size Discord shows an image in a chat, where small text is judged: docs/card-design.md's type
 *   scale); the 400 px picture is a PNG scaled here (`<name>@400px.png`), not by the browser, so it
 *   is the pixels a person sees, whatever the card's shape (3:1, the tall welcome card's 16:9, a
 *   board's 900 px wide column);
 * - each 1x card at 2x (HiDPI);
 * - strip-400px.png: every golden at 400 px, two columns, as one picture.
 */
const SMALL_WIDTH = DISPLAY_WIDTH;
/** Discord's dark chat background, where the 400 px pictures are shown. */
const DISCORD_GREY = '#313338';

interface Drawn {
  name: string;
  description: string;
  /** A golden of tests/card/goldens (every card at 1x, the HiDPI emoji card and every board). */
  golden: boolean;
  card: RenderedCard;
  /** The width the card's layout is designed at (its pixel width over its scale). */
  designWidth: number;
  small: Canvas;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The card scaled to `SMALL_WIDTH` px wide with the best filter (as the strip and a chat show it). */
async function scaledDown(png: Buffer): Promise<Canvas> {
  const image = await loadImage(png);
  const height = Math.round((SMALL_WIDTH * image.height) / image.width);
  const canvas = createCanvas(SMALL_WIDTH, height);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'best';
  context.drawImage(image, 0, 0, SMALL_WIDTH, height);
  return canvas;
}

/** Draws every sample card and board, in the order the goldens list them; writes each full size and at 400 px. */
async function drawAll(folder: string): Promise<Drawn[]> {
  const goldenNames = new Set([...GOLDEN_CARDS, ...GOLDEN_LEADERBOARDS].map((entry) => entry.name));
  const jobs = [
    ...SAMPLE_CARDS.map((sample) => ({ ...sample, scale: sample.input.scale ?? 1, render: () => renderCard(sample.input) })),
    ...GOLDEN_LEADERBOARDS.map((sample) => ({ ...sample, scale: sample.input.options.scale ?? 1, render: () => renderLeaderboardCard(sample.input) })),
  ];
  const drawn: Drawn[] = [];
  for (const job of jobs) {
    const card = await job.render();
    const small = await scaledDown(card.png);
    writeFileSync(join(folder, `${job.name}.png`), card.png);
    writeFileSync(join(folder, `${job.name}@400px.png`), small.toBuffer('image/png'));
    const ms = card.timings.draw + card.timings.encode;
    const warnings = card.warnings.length > 0 ? `  warnings: ${card.warnings.join('; ')}` : '';
    console.log(`${`${job.name}.png`.padEnd(40)} ${`${card.width}x${card.height}`.padEnd(10)} ${(card.png.length / 1024).toFixed(0).padStart(4)} KB  ${ms.toFixed(1)} ms${warnings}`);
    drawn.push({ name: job.name, description: job.description, golden: goldenNames.has(job.name), card, designWidth: card.width / job.scale, small });
  }
  return drawn;
}

/** Every picture at 400 px in two columns on Discord's grey; each row as tall as its taller picture. */
function strip(drawn: readonly Drawn[]): Buffer {
  const columns = 2;
  const gap = 12;
  const rows: Canvas[][] = [];
  for (let index = 0; index < drawn.length; index += columns) rows.push(drawn.slice(index, index + columns).map((entry) => entry.small));
  const rowHeights = rows.map((row) => Math.max(...row.map((small) => small.height)));
  const canvas = createCanvas(columns * (SMALL_WIDTH + gap) + gap, rowHeights.reduce((sum, height) => sum + height + gap, gap));
  const context = canvas.getContext('2d');
  context.fillStyle = DISCORD_GREY;
  context.fillRect(0, 0, canvas.width, canvas.height);
  let y = gap;
  for (const [rowIndex, row] of rows.entries()) {
    for (const [column, small] of row.entries()) context.drawImage(small, gap + column * (SMALL_WIDTH + gap), y);
    y += (rowHeights[rowIndex] ?? 0) + gap;
  }
  return canvas.toBuffer('image/png');
}

/** The 2x render of every 1x card (the 2x samples are drawn at 2x already). */
async function hidpiFigures(folder: string): Promise<string[]> {
  const figures: string[] = [];
  for (const sample of SAMPLE_CARDS.filter((card) => (card.input.scale ?? 1) === 1)) {
    const hidpi = await renderCard({ ...sample.input, scale: 2 });
    const file = `${sample.name}@2x.png`;
    writeFileSync(join(folder, file), hidpi.png);
    figures.push(`<figure><img src="${file}" width="${hidpi.width / 2}" alt="${sample.name} at 2x"><figcaption><b>${sample.name}</b> at 2x, ${hidpi.width}x${hidpi.height}</figcaption></figure>`);
  }
  return figures;
}

const folder = resolve(process.argv[2] ?? 'preview/cards');
mkdirSync(folder, { recursive: true });
const drawn = await drawAll(folder);
writeFileSync(join(folder, 'strip-400px.png'), strip(drawn));
const hidpi = await hidpiFigures(folder);

const pairs = drawn.map((entry) => {
  const { card, name } = entry;
  const label = `${name}${entry.golden ? ' (golden)' : ''}`;
  return `<figure id="${name}"><div class="pair"><img src="${name}.png" width="${entry.designWidth}" alt="${escapeHtml(name)}"><img src="${name}@400px.png" width="${SMALL_WIDTH}" alt="${escapeHtml(name)} at ${SMALL_WIDTH} px" title="as Discord shows it"></div><figcaption><b>${escapeHtml(label)}</b>, ${card.width}x${card.height}: ${escapeHtml(entry.description)}</figcaption></figure>`;
});
writeFileSync(
  join(folder, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Card preview</title>
<style>body{background:#0e1016;color:#cfd3dc;font:15px system-ui;padding:24px}figure{margin:0 0 28px}.pair{display:flex;gap:16px;align-items:flex-start;background:${DISCORD_GREY};padding:12px;width:max-content}.strip{background:${DISCORD_GREY};padding:12px;display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}.strip img{width:${SMALL_WIDTH}px}</style>
<h2>Every golden at ${SMALL_WIDTH} px, as Discord shows it</h2><div class="strip">${drawn.map((entry) => `<a href="#${entry.name}"><img src="${entry.name}@400px.png" alt="${escapeHtml(entry.name)}" title="${escapeHtml(entry.name)}"></a>`).join('')}</div>
<h2>Full size, and beside it at ${SMALL_WIDTH} px on Discord's grey</h2>${pairs.join('\n')}
<h2>2x (HiDPI)</h2>${hidpi.join('\n')}`,
);
console.log(`\n${drawn.length} cards and boards (${drawn.filter((entry) => entry.golden).length} goldens), each at ${SMALL_WIDTH} px, their 2x renders and strip-400px.png written to ${folder}`);
