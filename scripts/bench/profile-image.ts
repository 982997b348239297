import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY, startLocalStack } from '../local-stack/local-stack.ts';
import { startBenchProcess } from './bench-process.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { cpuSeconds, descendantCpuBetween, descendantCpuSeconds, peakRssMiB } from './proc-stats.ts';
import { runRequestLoad, type LoadResult } from './request-load.ts';

export const USER_ID = '302050872383242240';
export const RANK = { currentXp: 1200, requiredXp: 2000, level: 7, rank: 3, barColor: '#5865F2', levelColor: '#FFFFFF', autoColorRank: true };
/** Render worker processes per renderer in the stack, so "renderers" counts cores of rendering. */
export const STACK_RENDER_WORKERS = 1;

export type CardRequestKind = 'new' | 'repeat';

export interface ProfileImageMeasurement {
  topology: string;
  kind: CardRequestKind;
  load: LoadResult;
  /**
   * CPU milliseconds per answered request, by process: where the machine's two cores went. "bench
   * process" is this one: the load loop, and in the stack also the S3 server (s3rver runs here).
   * "<process> render workers" is the CPU of that process's child processes (the render workers).
   */
  cpuMsPerRequest: Record<string, number>;
}

export interface ProcessMemory {
  process: string;
  peakRssMiB: number | undefined;
}

interface Topology {
  name: string;
  /** Embedded only: see {@link fileCreationMicros}. */
  fileCreationMicros?: number;
  url: string;
  /** Render workers in all, to size the warm-up. */
  renderWorkers: number;
  processes(): { name: string; pid: number | undefined }[];
  stop(): Promise<void>;
}

const SHARED_ENV = { LOG_LEVEL: 'info', RATE_LIMITS: 'off' };

/**
 * CPU microseconds this process spends creating one empty file in `directory` (200 files, then
 * removed). The disk store creates a file per card, and on this machine's ext4 the cost depends on
 * where the directory landed: about 25-90 µs in some directories and about 600 in others of the
 * same filesystem, which moves the gateway's CPU per card by half a millisecond between runs. The
 * bench prints it beside the gateway's figure instead of hiding it in the spread.
 */
function fileCreationMicros(directory: string): number {
  const probe = join(directory, '.create-probe');
  mkdirSync(probe, { recursive: true });
  const files = 200;
  const before = process.cpuUsage();
  for (let index = 0; index < files; index += 1) closeSync(openSync(join(probe, String(index)), 'wx'));
  const used = process.cpuUsage(before);
  rmSync(probe, { recursive: true });
  return (used.user + used.system) / files;
}

async function startEmbedded(workDir: string): Promise<Topology & { fileCreationMicros: number }> {
  const mediaDirectory = join(workDir, 'media-embedded');
  mkdirSync(mediaDirectory, { recursive: true });
  const creation = fileCreationMicros(mediaDirectory);
  const port = await freeLoopbackPort();
  const gateway = startBenchProcess({
    name: 'gateway (embedded)',
    entry: GATEWAY_ENTRY,
    logFile: join(workDir, 'gateway-embedded.log'),
    env: { ...SHARED_ENV, PORT: String(port), HOST: '127.0.0.1', API_KEYS: BENCH_API_KEY, MEDIA_DIR: mediaDirectory, DATABASE_PATH: join(workDir, 'accounts.sqlite') },
  });
  try {
    const line = await gateway.waitFor(/embedded mode/);
    await gateway.waitFor(/gateway listening/);
    const workers = Number((JSON.parse(line) as { workers?: number }).workers ?? 1);
    return {
      name: 'embedded',
      fileCreationMicros: creation,
      url: `http://127.0.0.1:${port}`,
      renderWorkers: workers,
      processes: () => [{ name: 'gateway', pid: gateway.pid }],
      stop: () => gateway.stop(),
    };
  } catch (error) {
    await gateway.stop();
    throw error;
  }
}

async function startStack(renderers: number): Promise<Topology> {
  const stack = await startLocalStack({
    gatewayPort: await freeLoopbackPort(),
    renderers,
    apiKeys: BENCH_API_KEY,
    env: { ...SHARED_ENV, RENDER_WORKERS: String(STACK_RENDER_WORKERS) },
  });
  return {
    name: `stack, ${renderers} renderer${renderers === 1 ? '' : 's'}`,
    url: stack.gatewayUrl,
    renderWorkers: renderers * STACK_RENDER_WORKERS,
    processes: () => [
      { name: 'gateway', pid: stack.gateway.child.pid },
      { name: 'redis', pid: stack.redis.child.pid },
      // Named by position: renderers started together can share a name in the stack's own output.
      ...stack.renderers.map((renderer, index) => ({ name: `renderer ${index + 1}`, pid: renderer.child.pid })),
    ],
    stop: () => stack.stop(),
  };
}

/**
 * POST /v1/profile-image end to end through a real gateway: new cards (every body distinct, so
 * every request renders) and repeats (one body, answered from the dedupe record without
 * rendering), at concurrency 1 and 16, in embedded mode and in the `./run stack` topology with 1
 * and 2 renderers.
 */
export async function benchProfileImage(options: {
  workDir: string;
  seconds: { newC1: number; newC8: number; newC16: number; repeat: number };
  /** Windows of new cards at concurrency 8. */
  c8Windows: number;
  progress: (line: string) => void;
}): Promise<{ measurements: ProfileImageMeasurement[]; memory: ProcessMemory[]; renderWorkers: Record<string, number>; mediaFileCreationMicros?: number }> {
  const measurements: ProfileImageMeasurement[] = [];
  const memory: ProcessMemory[] = [];
  const renderWorkers: Record<string, number> = {};
  let mediaFileCreationMicros: number | undefined;
  const starters: (() => Promise<Topology>)[] = [() => startEmbedded(options.workDir), () => startStack(1), () => startStack(2)];
  let cardNumber = 0;
  for (const start of starters) {
    const topology = await start();
    renderWorkers[topology.name] = topology.renderWorkers;
    if (topology.fileCreationMicros !== undefined) {
      mediaFileCreationMicros = topology.fileCreationMicros;
      options.progress(`profile-image: creating a file in the embedded media directory costs ${topology.fileCreationMicros.toFixed(0)} µs of CPU`);
    }
    try {
      const headers = { Authorization: BENCH_API_KEY, 'Content-Type': 'application/json' };
      const url = `${topology.url}/v1/profile-image?userId=${USER_ID}`;
      const newCard = () => {
        cardNumber += 1;
        return JSON.stringify({ customTag: `Benchmark card #${cardNumber}`, presenceStatus: 'online', rankData: RANK });
      };
      const measure = async (kind: CardRequestKind, concurrency: number, seconds: number, body: () => string) => {
        const processes = topology.processes();
        const cpuBefore = processes.map((entry) => cpuSeconds(entry.pid));
        const childrenBefore = processes.map((entry) => descendantCpuSeconds(entry.pid));
        const ownBefore = process.cpuUsage();
        const load = await runRequestLoad({ url, headers, body, concurrency, seconds });
        const own = process.cpuUsage(ownBefore);
        const cpuMsPerRequest: Record<string, number> = { 'bench process': (own.user + own.system) / 1000 / load.requests };
        for (const [index, { name, pid }] of processes.entries()) {
          const before = cpuBefore[index];
          const after = cpuSeconds(pid);
          if (before !== undefined && after !== undefined) cpuMsPerRequest[name] = ((after - before) * 1000) / load.requests;
          // A process's own figure leaves out its children until they exit: render workers apart.
          const childrenAfter = descendantCpuSeconds(pid);
          if (childrenAfter.size > 0) cpuMsPerRequest[`${name} render workers`] = (descendantCpuBetween(childrenBefore[index] ?? new Map<number, number>(), childrenAfter) * 1000) / load.requests;
        }
        const failures = load.requests - (load.statuses['200'] ?? 0);
        if (failures > 0) throw new Error(`${topology.name} ${kind} c${concurrency}: ${failures} failed requests: ${JSON.stringify(load.statuses)}`);
        measurements.push({ topology: topology.name, kind, load, cpuMsPerRequest });
        options.progress(
          `profile-image: ${topology.name}, ${kind} cards, concurrency ${concurrency}: p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms, ${load.perSecond.toFixed(1)} cards/s (${load.requests} requests); CPU ms per card: ${Object.entries(
            cpuMsPerRequest,
          )
            .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
            .join(', ')}`,
        );
      };

      // Every render worker draws a few cards first: fonts, glyph caches and JIT are then warm.
      await runRequestLoad({ url, headers, body: newCard, concurrency: topology.renderWorkers, seconds: 60, maxRequests: 4 * topology.renderWorkers });
      await measure('new', 1, options.seconds.newC1, newCard);
      // Concurrency 8 in several windows: the spread of cards/s and CPU per card shows (issue 25's target).
      for (let window = 0; window < options.c8Windows; window += 1) await measure('new', 8, options.seconds.newC8, newCard);
      await measure('new', 16, options.seconds.newC16, newCard);
      const repeated = newCard();
      await runRequestLoad({ url, headers, body: () => repeated, concurrency: 1, seconds: 30, maxRequests: 1 });
      await measure('repeat', 1, options.seconds.repeat, () => repeated);
      await measure('repeat', 16, options.seconds.repeat, () => repeated);
      for (const entry of topology.processes().filter(({ name }) => name !== 'redis')) memory.push({ process: `${topology.name}: ${entry.name}`, peakRssMiB: peakRssMiB(entry.pid) });
    } finally {
      await topology.stop();
    }
  }
  return { measurements, memory, renderWorkers, ...(mediaFileCreationMicros === undefined ? {} : { mediaFileCreationMicros }) };
}
