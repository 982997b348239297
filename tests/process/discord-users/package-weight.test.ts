import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';

const probe = `
import { createRequire } from 'node:module';
await import('@utility-api/discord-users');
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({
  canvas: loaded.some((path) => path.includes('/canvas@')),
  ioredis: loaded.some((path) => path.includes('/ioredis@')),
}));
`;

test('importing the package loads neither node-canvas nor ioredis', async (t) => {
  // The gateway resolves profiles; rendering (and its native canvas) may live elsewhere, and
  // embedded mode needs no Redis client. Type-only imports must stay type-only.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', probe], { cwd: REPO_ROOT });
  t.deepEqual(JSON.parse(stdout.trim()), { canvas: false, ioredis: false });
});
