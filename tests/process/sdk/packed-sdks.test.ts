/**
 * Both SDKs as a bot developer gets them: packed (a tarball, a wheel), installed into fresh projects
 * outside the repository, and the READMEs' snippets run from there against a gateway. In-repository
 * behaviour is typescript-sdk.test.ts's and python-sdk.test.ts's; this is what ships.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { build, transform } from 'esbuild';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
/** The oldest Node the TypeScript SDK promises (`engines`), as a system install has it: no type stripping, its own npm. */
const PLAIN_NODE = '/usr/bin/node';
const PLAIN_NPM = '/usr/bin/npm';
/** Debian's interpreter builds the wheel: it has the python3-pip, python3-setuptools and python3-wheel that `scripts/setup.sh --test` installs. */
const DEBIAN_PYTHON = '/usr/bin/python3';
/** npm's `#!/usr/bin/env node` finds the plain Node first, not the Node 24 running the tests. */
const PLAIN_ENV = { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

let gateway: TestGateway;
let folder: string;

test.before(async () => {
  // Cards are checked for what they carry, not for speed: packing and installing run beside the renders.
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
  folder = mkdtempSync(join(tmpdir(), 'packed-sdks-'));
});

test.after.always(async () => {
  await gateway?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const snippetEnv = () => ({ ...PLAIN_ENV, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY });

/** The TypeScript README's two runnable snippets, by their first lines, and what each prints. */
function typescriptSnippets() {
  const readme = readFileSync(join(ROOT, 'packages/sdk/README.md'), 'utf8');
  const usage = /```ts\n(import \{ createClient, UtilityApiError \}[\s\S]*?)```/.exec(readme)?.[1];
  const templates = /## Templates, leaderboards and batches[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!usage || !templates) throw new Error('the SDK README lost a snippet');
  return { usage, templates };
}

function checkUsageOutput(t: ExecutionContext, stdout: string, where: string) {
  const [json, image, error] = stdout.trimEnd().split('\n');
  t.regex(json ?? '', /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png Welcome card for /, where);
  t.regex(image ?? '', /^image\/webp \d+ Profile card for /, where);
  t.regex(error ?? '', /^400 invalid_request \[/, where);
}

test('the TypeScript SDK packs, passes npm publish --dry-run, installs from its tarball, runs its README on plain Node and bundled, and loads with require()', async (t) => {
  // Packing starts a gateway for the document and compiles, then npm and tsc run: 50 s on a quiet
  // machine, 160 s beside other tests.
  t.timeout(420_000);
  const nodeVersion = (await run(PLAIN_NODE, ['--version'])).stdout.trim();
  t.true(Number(/^v(\d+)/.exec(nodeVersion)?.[1]) >= 20, `${PLAIN_NODE} is ${nodeVersion}`);
  t.log(`plain Node: ${nodeVersion}`);

  // `pnpm --filter @utility-api/client pack --pack-destination <dir>`, as the READMEs say. Packing
  // builds first (prepack): the types from a gateway's document, then tsc into dist/.
  const packed = join(folder, 'packed');
  await run('pnpm', ['--filter', '@utility-api/client', 'pack', '--pack-destination', packed], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const [tarballName] = readdirSync(packed).filter((name) => name.endsWith('.tgz'));
  t.truthy(tarballName, 'pnpm pack wrote a tarball');
  const tarball = join(packed, tarballName!);

  // The publish step, short of uploading: the tarball as the registry would get it.
  const publish = await run(PLAIN_NPM, ['publish', '--dry-run', tarball], { cwd: packed, env: PLAIN_ENV });
  t.regex(`${publish.stdout}${publish.stderr}`, /\+ @utility-api\/client@\d+\.\d+\.\d+/);
  const files = `${publish.stdout}${publish.stderr}`;
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/discord-js.js', 'dist/cjs/index.cjs', 'dist/cjs/index.d.cts', 'dist/cjs/discord-js.cjs']) t.true(files.includes(file), `${file} ships:\n${files}`);
  t.false(/\bsrc\//.test(files), 'no TypeScript sources ship');

  // A fresh bot project: the tarball installed with the plain Node's npm, nothing else from the registry.
  const project = join(folder, 'bot');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
  await run(PLAIN_NPM, ['install', '--offline', tarball], { cwd: project, env: PLAIN_ENV });
  t.false(existsSync(join(project, 'node_modules/discord.js')), 'discord.js is an optional peer: not installed with the SDK');

  // The README's snippets are TypeScript: a bot compiles them (esbuild strips the types), plain Node runs them.
  const { usage, templates } = typescriptSnippets();
  for (const [name, snippet] of [['usage', usage], ['templates', templates]] as const) {
    writeFileSync(join(project, `${name}.ts`), snippet);
    writeFileSync(join(project, `${name}.mjs`), (await transform(snippet, { loader: 'ts', format: 'esm' })).code);
  }
  checkUsageOutput(t, (await run(PLAIN_NODE, ['usage.mjs'], { cwd: project, env: snippetEnv() })).stdout, 'plain Node');
  const [card, board, batch] = (await run(PLAIN_NODE, ['templates.mjs'], { cwd: project, env: snippetEnv() })).stdout.trimEnd().split('\n');
  t.regex(card ?? '', /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png$/);
  t.regex(board ?? '', /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png$/);
  t.is(batch, 'ok invalid_request');

  // A bundler resolves the package's exports: one file that runs away from node_modules.
  const bundle = join(folder, 'bundled', 'usage.mjs');
  await build({ entryPoints: [join(project, 'usage.ts')], absWorkingDir: project, bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'silent' });
  t.notRegex(readFileSync(bundle, 'utf8'), /(from|import\()\s*["']@utility-api\/client/, 'the bundle carries the SDK, it does not import it');
  checkUsageOutput(t, (await run(PLAIN_NODE, [bundle], { cwd: folder, env: snippetEnv() })).stdout, 'bundled');

  // The discord.js helper as a subpath export, once the bot has discord.js (the repository's copy,
  // linked: the tests install nothing else from the registry): it loads on plain Node, and the
  // README's welcome bot type-checks against the published declarations.
  symlinkSync(realpathSync(join(ROOT, 'node_modules/discord.js')), join(project, 'node_modules/discord.js'));
  const helper = await run(PLAIN_NODE, ['--input-type=module', '--eval', "const helper = await import('@utility-api/client/discord.js'); console.log(typeof helper.cardAttachment, typeof helper.cardMessage);"], { cwd: project, env: PLAIN_ENV });
  t.is(helper.stdout, 'function function\n');

  // CommonJS too (Node 20 cannot require() an ES module): the require conditions' bundles and their .d.cts.
  const commonJs = [
    "const { createClient } = require('@utility-api/client');",
    "const { cardAttachment } = require('@utility-api/client/discord.js');",
    'createClient({ baseUrl: process.env.UTILITY_API_URL, apiKey: process.env.UTILITY_API_KEY })',
    "  .hexToRgb({ hex: '#FF5733' }).then((answer) => console.log(answer.mainRgb, typeof cardAttachment));",
  ].join('\n');
  writeFileSync(join(project, 'required.cjs'), commonJs);
  t.is((await run(PLAIN_NODE, ['required.cjs'], { cwd: project, env: snippetEnv() })).stdout, '255, 87, 51 function\n');
  writeFileSync(join(project, 'required.cts'), [
    "import { createClient, type CardOptions } from '@utility-api/client';",
    "import { cardAttachment } from '@utility-api/client/discord.js';",
    "const card: CardOptions = { layout: 'welcome' };",
    "export const calls = [createClient({ baseUrl: 'http://localhost:3000', apiKey: 'key' }).createProfileImage('302050872383242240', card), cardAttachment];",
  ].join('\n'));
  cpSync(join(ROOT, 'examples/discord-js-welcome.ts'), join(project, 'welcome.ts'));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    // What a bot's own project has: no skipLibCheck, so the SDK's declarations are checked too.
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], strict: true, noEmit: true },
    files: ['welcome.ts', 'usage.ts', 'templates.ts', 'required.cts'],
  }));
  const typecheck = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: project }).then(
    () => '',
    (error: { stdout?: string; message?: string }) => error.stdout ?? error.message ?? 'tsc failed',
  );
  t.is(typecheck, '');
});

test('the Python SDK builds a wheel with Debian setuptools, installs into a fresh venv and runs its README script', async (t) => {
  // A venv is made with its own pip (ensurepip): 20 s on a quiet machine, 100 s beside the suite.
  t.timeout(300_000);
  // A copy is built: pip writes build/ and *.egg-info beside the sources, and the tree must stay clean.
  const source = join(folder, 'python-src');
  cpSync(join(ROOT, 'sdk/python'), source, { recursive: true, filter: (path) => !['build', 'dist', '__pycache__'].includes(basename(path)) && !path.endsWith('.egg-info') });
  const wheels = join(folder, 'wheels');
  const pipEnv = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore', PYTHONDONTWRITEBYTECODE: '1' };
  await run(DEBIAN_PYTHON, ['-m', 'pip', 'wheel', '--quiet', '--no-build-isolation', '--no-deps', '--no-index', '-w', wheels, source], { env: pipEnv });
  const [wheel] = readdirSync(wheels).filter((name) => name.endsWith('.whl'));
  t.regex(wheel ?? '', /^utility_api-\d+\.\d+\.\d+-py3-none-any\.whl$/);

  // The venv's Python is the first python3 on PATH (a pyenv one when there is one), else Debian's:
  // a wheel installs without building, so it needs no setuptools of its own.
  const python = (await run('python3', ['-c', 'import sys; print(sys.executable if sys.version_info >= (3, 11) else "")']).catch(() => ({ stdout: '' }))).stdout.trim() || DEBIAN_PYTHON;
  t.log(`venv Python: ${python} ${(await run(python, ['--version'])).stdout.trim()}`);
  const venv = join(folder, 'venv');
  await run(python, ['-m', 'venv', venv]);
  await run(join(venv, 'bin/pip'), ['install', '--quiet', '--no-index', join(wheels, wheel!)], { env: pipEnv });

  // Run from a folder outside the repository, so only the installed package can be imported.
  const readme = readFileSync(join(ROOT, 'sdk/python/README.md'), 'utf8');
  const script = /```python\n(import asyncio\n[\s\S]*?)```/.exec(readme)?.[1];
  t.truthy(script, 'the README has the script');
  writeFileSync(join(folder, 'usage.py'), script!);
  const { stdout } = await run(join(venv, 'bin/python'), ['usage.py'], { cwd: folder, env: { ...pipEnv, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY } });
  const [cardLine, imageLine, errorLine] = stdout.trimEnd().split('\n');
  t.regex(cardLine ?? '', /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png Welcome card for /);
  t.regex(imageLine ?? '', /^image\/webp \d+ Profile card for /);
  t.regex(errorLine ?? '', /^400 invalid_request \[\{'in': 'query', 'field': 'hex'/);
  const where = await run(join(venv, 'bin/python'), ['-c', 'import utility_api; print(utility_api.__file__)'], { cwd: folder });
  t.true(where.stdout.startsWith(venv), where.stdout);
});
