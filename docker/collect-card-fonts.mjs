// Build-time helper of docker/renderer.Dockerfile, run as
//   node /app/docker/collect-card-fonts.mjs <output directory>
// Copies the system font files the card registers by path into <output directory>, keeping their
// absolute paths, together with the Debian copyright file of each package they come from (the
// fonts' licence travels with them). The runtime image then gets these ~75 MB instead of the
// ~145 MB that fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji install. The list is
// read from packages/card/src/fonts/font-files.ts itself, so it cannot drift from what the card
// loads; a font missing here fails the build instead of the renderer's boot.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';

const { cardFontFiles } = await import('../packages/card/src/fonts/font-files.ts');

const output = process.argv[2];
if (!output) {
  process.stderr.write('usage: collect-card-fonts.mjs <output directory>\n');
  process.exit(64); // EX_USAGE
}

const DEBIAN_SOURCE = /^Debian package (\S+)$/;
// Fonts from npm packages (Inter) are already in node_modules; only the system ones are copied.
const systemFonts = cardFontFiles().filter((file) => DEBIAN_SOURCE.test(file.source));
const debianPackages = [...new Set(systemFonts.map((file) => DEBIAN_SOURCE.exec(file.source)[1]))];
const copies = [
  ...systemFonts.map((file) => file.path),
  ...debianPackages.map((name) => `/usr/share/doc/${name}/copyright`),
];

const missing = copies.filter((path) => !existsSync(path));
if (missing.length > 0) {
  process.stderr.write(`collect-card-fonts: ${missing.length} files missing (install ${debianPackages.join(' ')}):\n  ${missing.join('\n  ')}\n`);
  process.exit(1);
}
for (const path of copies) {
  const target = join(output, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(path, target);
}
process.stdout.write(`collect-card-fonts: ${systemFonts.length} font files from ${debianPackages.join(', ')}\n`);
