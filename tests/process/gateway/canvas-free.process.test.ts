import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';

const run = promisify(execFile);

/** Whether node-canvas' native addon is mapped into a fresh process after the given imports. */
async function canvasLoadedAfter(imports: string[]): Promise<boolean> {
  const script = `${imports.map((path) => `await import(${JSON.stringify(path)});`).join('\n')}
process.stdout.write(String((await import('node:fs')).readFileSync('/proc/self/maps', 'utf8').includes('canvas.node')));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT });
  return stdout.trim() === 'true';
}

test('the gateway code a distributed deployment runs never loads node-canvas', async (t) => {
  t.false(await canvasLoadedAfter(['./services/gateway/src/server.ts', './services/gateway/src/config.ts']));
});

test('the embedded render path does load it (the check can fail)', async (t) => {
  t.true(await canvasLoadedAfter(['./services/gateway/src/server.ts', '@utility-api/render-engine']));
});
