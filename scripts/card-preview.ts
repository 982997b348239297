import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderCard } from '@utility-api/card';
import { SAMPLE_CARDS } from '../packages/card/samples/sample-cards.ts';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Writes every sample card and an index.html gallery: `pnpm card:preview [folder]` (default preview/cards). */
const folder = resolve(process.argv[2] ?? 'preview/cards');
mkdirSync(folder, { recursive: true });
const rows: string[] = [];
for (const sample of SAMPLE_CARDS) {
  const card = await renderCard(sample.input);
  const file = `${sample.name}.png`;
  writeFileSync(join(folder, file), card.png);
  const ms = card.timings.draw + card.timings.encode;
  const warnings = card.warnings.length > 0 ? `  warnings: ${card.warnings.join('; ')}` : '';
  console.log(`${file.padEnd(32)} ${card.width}x${card.height}  ${(card.png.length / 1024).toFixed(0).padStart(4)} KB  ${ms.toFixed(1)} ms${warnings}`);
  rows.push(`<figure><img src="${file}" width="900" alt="${sample.name}"><figcaption><b>${sample.name}</b>: ${escapeHtml(sample.description)}</figcaption></figure>`);
}
writeFileSync(
  join(folder, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Card preview</title><style>body{background:#0e1016;color:#cfd3dc;font:15px system-ui;padding:24px}figure{margin:0 0 28px}</style>${rows.join('\n')}`,
);
console.log(`\n${SAMPLE_CARDS.length} cards written to ${folder}`);
