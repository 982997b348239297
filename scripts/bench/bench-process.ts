import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { REPO_ROOT } from '../local-stack/service-process.ts';

/** `taskset` pins a process to cores so the server and the load generator do not share one. */
export const HAS_TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** The command prefix that pins to `cpus` (a taskset list such as "0" or "1"), or none without taskset. */
export function pinned(cpus: string | undefined, command: string, args: readonly string[]): [string, string[]] {
  return HAS_TASKSET && cpus !== undefined ? ['taskset', ['-c', cpus, command, ...args]] : [command, [...args]];
}

/**
 * Runs a load generator to its end, pinned to `cpus`, and returns the line it printed starting with
 * `marker` (without it): its summary. Fails with everything it printed when it exits non-zero or
 * prints no such line.
 */
export async function summaryLineOf(cpus: string | undefined, command: string, args: readonly string[], marker: string): Promise<string> {
  const [pinnedCommand, pinnedArgs] = pinned(cpus, command, args);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(pinnedCommand, pinnedArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${command} exited with ${code}:\n${text}`))));
  });
  const line = output.split('\n').find((candidate) => candidate.startsWith(marker));
  if (line === undefined) throw new Error(`${command} printed no summary:\n${output}`);
  return line.slice(marker.length);
}

export interface BenchProcess {
  name: string;
  pid: number | undefined;
  /** Everything the process wrote so far (stdout and stderr share one file). */
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry with Node (as production does), optionally pinned to cores, with stdout
 * and stderr going to `logFile`: a server's logging cost stays what it is in production (pino
 * writing JSON lines to a file), with no pipe back to this process to read.
 */
export function startBenchProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  logFile: string;
  cpus?: string;
  /** The checkout to run the entry from; this one by default. */
  cwd?: string;
}): BenchProcess {
  const fd = openSync(options.logFile, 'a');
  const [command, args] = pinned(options.cpus, process.execPath, [options.entry]);
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = once(child, 'exit');
  let running = true;
  void exited.then(() => {
    running = false;
  });
  const output = () => readFileSync(options.logFile, 'utf8');
  return {
    name: options.name,
    // taskset execs the command, so this is the node process itself.
    pid: child.pid,
    output,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = output()
          .split('\n')
          .find((candidate) => pattern.test(candidate));
        if (line !== undefined) return line;
        if (!running) throw new Error(`${options.name} exited before ${pattern}:\n${output().slice(-4000)}`);
        if (Date.now() > deadline) throw new Error(`${options.name}: no ${pattern} within ${timeoutMs} ms:\n${output().slice(-4000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
