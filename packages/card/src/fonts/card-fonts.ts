import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { registerFont } from 'canvas';
import { cardFontFiles } from './font-files.ts';

export class MissingFontsError extends Error {
  constructor(missing: readonly { path: string; source: string }[]) {
    const sources = [...new Set(missing.map((file) => file.source))];
    super(`Card fonts are missing (${missing.length} files). Install: ${sources.join(', ')}. First missing: ${missing[0]?.path}`);
    this.name = 'MissingFontsError';
  }
}

const ISOLATED_CONFIG_MARKER = 'utility-api-card-fonts';

/**
 * Points fontconfig at an empty configuration, so the only fonts Pango can use are the ones
 * registered below: every machine then draws the same card whatever else it has installed.
 * It must run before fontconfig first initializes, and in the main thread: a worker thread's
 * `process.env` is a private copy that the C library never sees, so workers rely on the
 * variable their parent set before starting them.
 *
 * The configuration lives in one folder per user under the OS temp dir, shared by every process
 * (a folder per process would be left behind by each one), and is replaced atomically only when
 * its text differs; fontconfig's cache there then also survives restarts.
 */
function isolateFontconfig(): void {
  const current = process.env.FONTCONFIG_FILE ?? '';
  if (current.includes(ISOLATED_CONFIG_MARKER) && existsSync(current)) return;
  if (!isMainThread) {
    throw new Error('prepareCardFonts() must run in the main thread before render worker threads start');
  }
  const directory = join(tmpdir(), `${ISOLATED_CONFIG_MARKER}-${process.getuid?.() ?? 'user'}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const file = join(directory, 'fonts.conf');
  const config = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><cachedir>${directory}</cachedir></fontconfig>\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== config) {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, config);
    renameSync(temporary, file);
  }
  process.env.FONTCONFIG_FILE = file;
}

let registered = false;

/**
 * Registers the card's fonts once per thread. Call it at boot: a missing font package is then a
 * start-up error naming what to install, not a card drawn in a fallback face.
 */
export function prepareCardFonts(): void {
  if (registered) return;
  isolateFontconfig();
  const files = cardFontFiles();
  const missing = files.filter((file) => !existsSync(file.path));
  if (missing.length > 0) throw new MissingFontsError(missing);
  for (const file of files) {
    registerFont(file.path, file.weight ? { family: file.family, weight: file.weight } : { family: file.family });
  }
  registered = true;
}
