import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningRedis {
  url: string;
  port: number;
  child: ChildProcess;
  /** Where its data lives: a temporary directory, or the one it was given. */
  directory: string;
  /** Resolves when redis-server exits, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: Redis vanishes as in a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  port: number;
  timeoutMs?: number;
  /** More `redis-server` arguments; later ones win, e.g. `['--maxmemory-policy', 'allkeys-lru']`. */
  extraArgs?: readonly string[];
  /**
   * Keep the data in this directory, with the append-only file on, and leave it there on stop:
   * `./run stack` keeps its queue and managed keys across runs this way. Without it the server is
   * a throwaway (tests): no persistence, in a temporary directory removed on stop.
   */
  directory?: string;
}

/**
 * A `redis-server` from PATH on loopback with `noeviction` (BullMQ loses jobs under any evicting
 * policy): persistent in `directory` when given (`./run stack`), else a throwaway (the tests).
 */
export async function startRedisServer(options: RedisServerOptions): Promise<RunningRedis> {
  const keepDirectory = options.directory !== undefined;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'utility-api-redis-'));
  if (keepDirectory) mkdirSync(directory, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      ...['--port', String(options.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', keepDirectory ? 'yes' : 'no', '--dir', directory],
      ...['--maxmemory-policy', 'noeviction', ...(options.extraArgs ?? [])],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), options.timeoutMs ?? 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run redis-server (is it installed? apt-get install redis-server): ${error.message}`));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited:\n${output}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const finish = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    if (!keepDirectory) rmSync(directory, { recursive: true, force: true });
  };
  return {
    url: `redis://127.0.0.1:${options.port}`,
    port: options.port,
    child,
    directory,
    exited,
    kill: () => finish('SIGKILL'),
    stop: () => finish('SIGTERM'),
  };
}
