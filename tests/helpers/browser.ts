import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Debian's `chromium` (installed by `scripts/setup.sh --test`); puppeteer-core never downloads one. */
const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * A headless Chromium for the tests that look at pages (docs, playground). `--no-sandbox` because
 * CI runs as root, where Chromium's sandbox refuses to start; the pages are our own.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? CHROMIUM_PATHS.find((path) => existsSync(path));
  if (!executablePath) throw new Error('no chromium found: run `bash scripts/setup.sh --test` (it installs Debian\'s chromium)');
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--font-render-hinting=none'],
  });
}
