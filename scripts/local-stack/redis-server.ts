import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, PORT_ATTEMPTS, portWasTaken } from './free-port.ts';

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
  /**
   * Its port. Without one it takes a port that was free a moment before, and another one when some
   * other process bound that port first: any outgoing connection on this machine may be given a
   * port of the ephemeral range meanwhile.
   */
  port?: number;
  /** A Redis Cluster node: its cluster bus port is chosen the same way (`port + 10000` may be taken or past 65535). */
  clusterNode?: boolean;
  /** How a free port is chosen: `freeLoopbackPort`; a test hands in a taken one. */
  choosePort?: () => Promise<number>;
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
  for (let attempt = 1; ; attempt += 1) {
    const choosePort = options.choosePort ?? freeLoopbackPort;
    const port = options.port ?? (await choosePort());
    const busPort = options.clusterNode ? await choosePort() : undefined;
    try {
      return await startOnPorts(port, busPort, options);
    } catch (error) {
      const chosenHere = options.port === undefined || busPort !== undefined;
      if (!chosenHere || attempt === PORT_ATTEMPTS || !portWasTaken(error)) throw error;
    }
  }
}

async function startOnPorts(port: number, busPort: number | undefined, options: RedisServerOptions): Promise<RunningRedis> {
  const keepDirectory = options.directory !== undefined;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'utility-api-redis-'));
  if (keepDirectory) mkdirSync(directory, { recursive: true });
  const cluster = busPort === undefined ? [] : ['--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', 'nodes.conf'];
  const child = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', keepDirectory ? 'yes' : 'no', '--dir', directory],
      ...['--maxmemory-policy', 'noeviction', ...cluster, ...(options.extraArgs ?? [])],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const finish = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    if (!keepDirectory) rmSync(directory, { recursive: true, force: true });
  };
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
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
  await ready.catch(async (error: unknown) => {
    await finish('SIGKILL');
    throw error;
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    directory,
    exited,
    kill: () => finish('SIGKILL'),
    stop: () => finish('SIGTERM'),
  };
}
