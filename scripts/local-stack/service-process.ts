import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** How long after a process exits its output may still be arriving through the pipes. */
const OUTPUT_DRAIN_CAP_MS = 2000;

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching; rejects if the process exits first or on timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a service entry point with Node, as production runs it, collecting (and optionally echoing) its output. */
export function startServiceProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  echo?: (line: string) => void;
  /** A command that execs the rest, run first (`pnpm bench --scale` puts renderers in a CPU cgroup). */
  commandPrefix?: readonly string[];
}): ServiceProcess {
  const [command, ...args] = [...(options.commandPrefix ?? []), process.execPath, options.entry];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let partial = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    const piece = chunk.toString('utf8');
    text += piece;
    if (options.echo) {
      partial += piece;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.echo(line);
    }
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  // 'exit' can come before the last lines leave the pipes; a worker process that inherited them may
  // keep them open longer, so the wait for their end is capped.
  const pipesEnded = Promise.all(
    [child.stdout, child.stderr].map(async (stream) => {
      if (stream && !stream.readableEnded) await once(stream, 'end').catch(() => undefined);
    }),
  );
  const outputComplete = exited.then(() => Promise.race([pipesEnded, new Promise((resolve) => setTimeout(resolve, OUTPUT_DRAIN_CAP_MS).unref())]));
  return {
    name: options.name,
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
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
          reject(new Error(`${options.name}: timed out waiting for ${pattern}; output:\n${text}`));
        }, timeoutMs);
        void outputComplete.then(() => {
          check();
          cleanup();
          reject(new Error(`${options.name} exited before ${pattern}; output:\n${text}`));
        });
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await outputComplete;
    },
  };
}
