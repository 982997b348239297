import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderCard } from '@utility-api/card';
import { createCanvas, loadImage } from 'canvas';
import { SAMPLE_CARDS } from '../packages/card/samples/sample-cards.ts';
import { DISPLAY_WIDTH } from '../packages/card/src/layout/type-scale.ts';

/**
 * Writes every sample card and an index.html gallery: `pnpm card:preview [folder]` (default
 * preview/cards). Three views: each card at 1x beside the same card at 400 px wide (the size
 * Discord shows an image in a chat, where small text is judged: docs/card-design.md's type scale),
 * each at 2x (HiDPI), and a strip of every card at 400 px.
 */
const STRIP_WIDTH = DISPLAY_WIDTH;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const folder = resolve(process.argv[2] ?? 'preview/cards');
mkdirSync(folder, { recursive: true });
const rows: string[] = [];
const hidpiRows: string[] = [];
const stripCards: Buffer[] = [];
for (const sample of SAMPLE_CARDS) {
  const card = await renderCard(sample.input);
  const file = `${sample.name}.png`;
  writeFileSync(join(folder, file), card.png);
  const ms = card.timings.draw + card.timings.encode;
  const warnings = card.warnings.length > 0 ? `  warnings: ${card.warnings.join('; ')}` : '';
  console.log(`${file.padEnd(34)} ${card.width}x${card.height}  ${(card.png.length / 1024).toFixed(0).padStart(4)} KB  ${ms.toFixed(1)} ms${warnings}`);
  const caption = `<figcaption><b>${sample.name}</b>: ${escapeHtml(sample.description)}</figcaption>`;
  rows.push(
    `<figure><div class="pair"><img src="${file}" width="${card.width / (sample.input.scale ?? 1)}" alt="${sample.name}"><img src="${file}" width="${STRIP_WIDTH}" alt="${sample.name} at ${STRIP_WIDTH} px" title="as Discord shows it"></div>${caption}</figure>`,
  );
  stripCards.push(card.png);
  if ((sample.input.scale ?? 1) === 1) {
    const hidpi = await renderCard({ ...sample.input, scale: 2 });
    const hidpiFile = `${sample.name}@2x.png`;
    writeFileSync(join(folder, hidpiFile), hidpi.png);
    hidpiRows.push(`<figure><img src="${hidpiFile}" width="900" alt="${sample.name} at 2x">${caption}</figure>`);
  }
}

// The strip: every card scaled to 400 px wide, in two columns, as one picture to look at.
const stripHeight = (STRIP_WIDTH * 300) / 900;
const columns = 2;
const gap = 12;
const strip = createCanvas(columns * (STRIP_WIDTH + gap) + gap, Math.ceil(stripCards.length / columns) * (stripHeight + gap) + gap);
const stripContext = strip.getContext('2d');
stripContext.fillStyle = '#313338'; // Discord's dark chat background
stripContext.fillRect(0, 0, strip.width, strip.height);
stripContext.imageSmoothingEnabled = true;
stripContext.patternQuality = 'best';
for (const [index, png] of stripCards.entries()) {
  const image = await loadImage(png);
  const x = gap + (index % columns) * (STRIP_WIDTH + gap);
  const y = gap + Math.floor(index / columns) * (stripHeight + gap);
  stripContext.drawImage(image, x, y, STRIP_WIDTH, stripHeight);
}
writeFileSync(join(folder, 'strip-400px.png'), strip.toBuffer('image/png'));

writeFileSync(
  join(folder, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Card preview</title>
<style>body{background:#0e1016;color:#cfd3dc;font:15px system-ui;padding:24px}figure{margin:0 0 28px}.pair{display:flex;gap:16px;align-items:center;background:#313338;padding:12px;width:max-content}.strip{background:#313338;padding:12px;display:flex;flex-wrap:wrap;gap:12px}.strip img{width:${STRIP_WIDTH}px}</style>
<h2>At 400 px, as Discord shows a card</h2><div class="strip">${SAMPLE_CARDS.map((sample) => `<img src="${sample.name}.png" alt="${sample.name}" title="${sample.name}">`).join('')}</div>
<h2>1x, and beside it at ${STRIP_WIDTH} px</h2>${rows.join('\n')}
<h2>2x (HiDPI)</h2>${hidpiRows.join('\n')}`,
);
console.log(`\n${SAMPLE_CARDS.length} cards (and their 2x renders, and strip-400px.png) written to ${folder}`);
