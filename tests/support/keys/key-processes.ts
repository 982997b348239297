import { execFile } from 'node:child_process';
import { REPO_ROOT } from '../../helpers/processes.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `./run keys <args>` as a real process (node services/gateway/src/keys-main.ts), with only the
 * given environment. In embedded mode give DATABASE_PATH and KEYS_FILE: their defaults are
 * relative to the repository.
 */
export function runKeysCli(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['services/gateway/src/keys-main.ts', ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : undefined) : 0;
        if (code === undefined) reject(error ?? new Error('no exit code'));
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Creates a key with the CLI and returns it with its public fields (from `create --json`). */
export async function createKey(env: Record<string, string>, args: readonly string[] = []): Promise<{ key: string; id: string; prefix: string; name: string }> {
  const run = await runKeysCli(['create', '--name', 'test-bot', '--json', ...args], env);
  if (run.code !== 0) throw new Error(`keys create failed (${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout) as { key: string; id: string; prefix: string; name: string };
}

/** Polls `probe` until it returns true; resolves with the time taken, or rejects at the deadline. */
export async function timeUntil(probe: () => Promise<boolean>, deadlineMs: number, intervalMs = 25): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > deadlineMs) throw new Error(`not true within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export async function statusWith(url: string, key: string, path = '/v1/hex-to-rgb?hex=fff'): Promise<number> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: key } });
  await response.arrayBuffer();
  return response.status;
}
