/**
 * The tier guard (tests/helpers/tier-guard.ts, loaded into every ava worker) refuses what a test's
 * folder does not allow: a socket in tests/unit, a program in tests/http, redis-server in
 * tests/process. Each case runs a small test file from a temporary tests/<tier>/ folder in a child
 * Node with the guard, as ava runs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';

const GUARD = join(REPO_ROOT, 'tests/helpers/tier-guard.ts');

function runInTier(tier: string, body: string): { status: number | null; stderr: string } {
  const root = mkdtempSync(join(tmpdir(), 'tier-guard-'));
  try {
    const folder = join(root, 'tests', tier);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'case.test.ts');
    writeFileSync(file, body);
    const run = spawnSync(process.execPath, [`--import=${GUARD}`, file], { encoding: 'utf8', timeout: 30_000 });
    return { status: run.status, stderr: run.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const LISTEN = "import { createServer } from 'node:net';\nconst server = createServer().listen(0, '127.0.0.1', () => server.close());\n";
const SPAWN_NODE = "import { spawn } from 'node:child_process';\nspawn(process.execPath, ['-e', '0']);\n";
const SPAWN_REDIS = "import { spawn } from 'node:child_process';\nspawn('redis-server', ['--version']).on('error', () => {});\n";

test('a unit test that listens on a socket is refused, naming the tier it belongs in', (t) => {
  const run = runInTier('unit', LISTEN);
  t.not(run.status, 0);
  t.regex(run.stderr, /tests\/unit\/case\.test\.ts is in tests\/unit but listens on a socket: it belongs in tests\/http/);
});

test('the same server in an http test runs', (t) => {
  const run = runInTier('http', LISTEN);
  t.is(run.status, 0, run.stderr);
});

test('an http test that starts a program is refused; a process test may start Node but not redis-server', (t) => {
  t.regex(runInTier('http', SPAWN_NODE).stderr, /is in tests\/http but starts node: it belongs in tests\/process/);
  t.is(runInTier('process', SPAWN_NODE).status, 0);
  t.regex(runInTier('process', SPAWN_REDIS).stderr, /is in tests\/process but starts redis-server: it belongs in tests\/redis/);
});
