import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { registerFont } from 'canvas';
import { cardFontFiles } from './font-files.ts';

class MissingFontsError extends Error {
  constructor(missing: readonly { path: string; source: string }[]) {
    const sources = [...new Set(missing.map((file) => file.source))];
    super(`Card fonts are missing (${missing.length} files). Install: ${sources.join(', ')}. First missing: ${missing[0]?.path}`);
    this.name = 'MissingFontsError';
  }
}

/** The card's own fontconfig file, shipped beside this module (see the comment inside it). */
const CARD_FONTCONFIG = fileURLToPath(new URL('./fonts.conf', import.meta.url));

/**
 * Points fontconfig at the card's configuration, which names no font directories, so the only
 * fonts Pango can use are the ones registered below. It must run before fontconfig first
 * initializes, and in a process's main thread: a worker thread's `process.env` is a private copy
 * that the C library never sees. The file is part of the package, never generated: an earlier
 * version wrote it under the OS temp dir, and render workers crash-looped when a temp cleaner
 * removed it while they started.
 */
function isolateFontconfig(): void {
  if (process.env.FONTCONFIG_FILE === CARD_FONTCONFIG) return;
  if (!isMainThread) throw new Error('prepareCardFonts() must first run in the main thread, before fontconfig starts');
  process.env.FONTCONFIG_FILE = CARD_FONTCONFIG;
}

let registered = false;

/**
 * Registers the card's fonts once per process. Call it at boot: a missing font package is then a
 * start-up error naming what to install, not a card drawn in a fallback face.
 */
export function prepareCardFonts(): void {
  if (registered) return;
  isolateFontconfig();
  const files = cardFontFiles();
  const missing = files.filter((file) => !existsSync(file.path));
  if (missing.length > 0) throw new MissingFontsError(missing);
  for (const file of files) {
    registerFont(file.path, { family: file.family, ...(file.weight && { weight: file.weight }), ...(file.style && { style: file.style }) });
  }
  registered = true;
}
