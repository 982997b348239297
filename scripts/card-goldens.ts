import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { renderCard, renderLeaderboardCard } from '@utility-api/card';
import { GOLDEN_CARDS, GOLDEN_FOLDER, GOLDEN_LEADERBOARDS, goldenBytes, goldenPath } from '../tests/support/card/golden-images.ts';

/**
 * `pnpm card:goldens`: redraws every golden card into tests/support/card/goldens/ (and deletes goldens of
 * samples that no longer exist). Run it after an intended design change, look at every changed
 * PNG (git shows them side by side), and commit them with the change.
 */
mkdirSync(GOLDEN_FOLDER, { recursive: true });
const wanted = new Set([...GOLDEN_CARDS, ...GOLDEN_LEADERBOARDS].map((card) => `${card.name}.png`));
for (const file of readdirSync(GOLDEN_FOLDER)) {
  if (file.endsWith('.png') && !wanted.has(file)) {
    rmSync(goldenPath(file.slice(0, -4)));
    console.log(`removed ${file}`);
  }
}
let total = 0;
for (const card of GOLDEN_CARDS) {
  const rendered = await renderCard(card.input);
  const bytes = goldenBytes(rendered.png);
  writeFileSync(goldenPath(card.name), bytes);
  total += bytes.length;
  console.log(`${card.name.padEnd(28)} ${(bytes.length / 1024).toFixed(0).padStart(4)} KB${rendered.warnings.length > 0 ? `  (warnings: ${rendered.warnings.length})` : ''}`);
}
for (const board of GOLDEN_LEADERBOARDS) {
  const rendered = await renderLeaderboardCard(board.input);
  const bytes = goldenBytes(rendered.png);
  writeFileSync(goldenPath(board.name), bytes);
  total += bytes.length;
  console.log(`${board.name.padEnd(28)} ${(bytes.length / 1024).toFixed(0).padStart(4)} KB`);
}
console.log(`\n${GOLDEN_CARDS.length + GOLDEN_LEADERBOARDS.length} goldens, ${(total / 1024).toFixed(0)} KB, in ${GOLDEN_FOLDER}`);
