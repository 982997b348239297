import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A TCP port that was free a moment ago on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ManagedProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching the pattern; rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a TypeScript entry point with tsx, as `pnpm start` does, collecting stdout and stderr. */
export function startNodeProcess(entry: string, env: Record<string, string>): ManagedProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    child,
    output: () => text,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = text.split('\n').find((candidate) => pattern.test(candidate));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`));
        }, timeoutMs);
        void exit.then(() => {
          check();
          cleanup();
          reject(new Error(`process exited before ${pattern}; output:\n${text}`));
        });
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    exited: () => exit,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exit;
    },
  };
}
