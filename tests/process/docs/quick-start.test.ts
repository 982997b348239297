/**
 * The README's quick start as a reader runs it: `./run start` from the repository root, through
 * ./run, pnpm and scripts/setup.sh, until it prints its summary; the summary is the one the README
 * shows, and its key answers. Then the README's own-keys variant. Two things differ from the
 * reader's machine, both environment: PORT is a free port (never a fixed one in tests), and
 * MEDIA_DIR / DATABASE_PATH point into a temporary folder (the repository's .data is nobody's test data).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freePort } from '../../helpers/processes.ts';
import { blocksOf, ROOT } from '../../support/docs/doc-blocks.ts';

/** The two commands the README marks as covered here (readme-examples.test.ts checks the markers name this file and these commands). */
const QUICK_START = './run start';
const OWN_KEYS = 'API_KEYS=my-first-key-0123456789 PORT=8080 ./run start';
/** Boot includes scripts/setup.sh's checks and the render workers' warm-up cards. */
const READY_TIMEOUT_MS = 120_000;

const readme = blocksOf('README.md');

/** The README block marked as covered by this file for `command`, its command line without the comment. */
function readmeCommand(command: string): string {
  const block = readme.find((candidate) => candidate.coveredBy?.file === 'tests/process/docs/quick-start.test.ts' && candidate.coveredBy.command === command);
  if (!block) throw new Error(`README.md has no block marked as covered by this test for "${command}"`);
  return block.code.replace(/\s+#.*$/m, '').trim();
}

interface Started {
  summary: string;
  stop(): Promise<void>;
}

/** Runs `command` with bash in the repository root in its own process group, until its summary's last line. */
async function start(command: string, port: number): Promise<Started> {
  const data = mkdtempSync(join(tmpdir(), 'quick-start-'));
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), MEDIA_DIR: join(data, 'media'), DATABASE_PATH: join(data, 'utility-api.sqlite') },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const summary = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no summary within ${READY_TIMEOUT_MS} ms:\n${stderr}\n${stdout}`)), READY_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /^Utility API is ready:[\s\S]*?^ {2}Playground .*$/m.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code} before its summary:\n${stderr}\n${stdout}`)));
  });
  return {
    summary,
    async stop() {
      // The whole group: bash, ./run's pnpm, and the gateway it started.
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      rmSync(data, { recursive: true, force: true });
    },
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.serial('`./run start` prints the summary the README shows, and the key in it answers', async (t) => {
  t.timeout(READY_TIMEOUT_MS + 60_000);
  const command = readmeCommand(QUICK_START);
  t.is(command, QUICK_START);
  const port = await freePort();
  const gateway = await start(command, port);
  try {
    // The README's summary with this run's port; "..." stands for the parts new each run, and the date is any date.
    const shown = readme.find((block) => block.kind === 'text' && block.code.startsWith('Utility API is ready:'));
    t.truthy(shown, 'the README shows the summary');
    const pattern = escape(shown!.code.trimEnd().replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`))
      .replaceAll(escape('...'), '[A-Za-z0-9_-]+')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\\\.\d{3}Z/, '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z');
    t.regex(gateway.summary, new RegExp(`^${pattern}$`));
    const key = /Key {9}(dev_\S+)/.exec(gateway.summary)?.[1];
    t.truthy(key);
    const answer = await fetch(`http://127.0.0.1:${port}/v1/coin-flip`, { headers: { authorization: key! } });
    t.is(answer.status, 200);
    const link = /Account {5}(\S+)/.exec(gateway.summary)![1]!;
    t.true(link.startsWith(`http://127.0.0.1:${port}/account/sign-in#token=`));
  } finally {
    await gateway.stop();
  }
});

test.serial('`API_KEYS=... PORT=8080 ./run start` (on a free port instead of 8080) answers that key', async (t) => {
  t.timeout(READY_TIMEOUT_MS + 60_000);
  const command = readmeCommand(OWN_KEYS);
  t.is(command, OWN_KEYS);
  const port = await freePort();
  const gateway = await start(command.replace('PORT=8080', `PORT=${port}`), port);
  try {
    t.regex(gateway.summary, /^ {2}Key {9}1 from API_KEYS, 0 made in the account area or with \.\/run keys$/m);
    const answer = await fetch(`http://127.0.0.1:${port}/v1/coin-flip`, { headers: { authorization: 'my-first-key-0123456789' } });
    t.is(answer.status, 200);
  } finally {
    await gateway.stop();
  }
});
