/**
 * The TypeScript SDK's CommonJS build, for bots that `require()` it on a Node without require(esm)
 * (Node 20, 22 before 22.12): each entry point bundled by esbuild into `packages/sdk/dist/cjs/*.cjs`
 * (discord.js stays a require of the bot's own), and tsc's declarations copied beside them as
 * `.d.cts`, whose imports name `.cjs` files so TypeScript reads them as CommonJS too. Run by the
 * SDK's build after tsc has written `dist/`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './local-stack/service-process.ts';

const SDK = join(REPO_ROOT, 'packages/sdk');
const DIST = join(SDK, 'dist');
const CJS = join(DIST, 'cjs');
/** The package's entry points (`exports`), by their source file. */
const ENTRY_POINTS = ['index', 'discord-js'];

await build({
  entryPoints: ENTRY_POINTS.map((name) => join(SDK, 'src', `${name}.ts`)),
  outdir: CJS,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['discord.js'],
  logLevel: 'warning',
});

/** Every declaration file under `dist/` (generated/ included), relative to it. */
function declarations(folder: string, prefix = ''): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) return path === 'cjs' ? [] : declarations(folder, path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

for (const file of declarations(DIST)) {
  const source = readFileSync(join(DIST, file), 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.cjs$2');
  const target = join(CJS, file.replace(/\.d\.ts$/, '.d.cts'));
  mkdirSync(join(target, '..'), { recursive: true });
  writeFileSync(target, source);
}
