import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const REPO_ROOT = join(import.meta.dirname, '../../..');
const run = promisify(execFile);

/**
 * Render workers used to crash-loop when a temp cleaner removed the fontconfig file they shared
 * under the OS temp dir. The configuration now ships with the package: a process whose temp dir
 * does not even exist still draws a card, and fontconfig reads the file the package ships.
 */
test('fonts are configured from a file in the package, whatever happens to the temp dir', async (t) => {
  const script = `
    import { prepareCardFonts, renderCard } from '@utility-api/card';
    prepareCardFonts();
    const card = await renderCard({ profile: { userId: '302050872383242240', username: 'fonts' }, options: { customUsername: 'Fonts 東京 ✨' } });
    console.log(JSON.stringify({ file: process.env.FONTCONFIG_FILE, bytes: card.png.length }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: '/nonexistent/temp-cleaned-away' },
  });
  const { file, bytes } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { file: string; bytes: number };
  t.is(file, join(REPO_ROOT, 'packages/card/src/fonts/fonts.conf'));
  t.true(bytes > 10_000, `a real PNG (${bytes} bytes)`);
});
