/** Peak memory and CPU time of live processes, read from /proc (Linux). */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process (or thread) exited between listing and reading
  }
}

/** A `VmRSS`/`VmHWM`-style field of /proc/<pid>/status, in bytes. */
function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const kilobytes = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readProc(`/proc/${pid}/status`) ?? '')?.[1];
  return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
}

export const residentBytes = (pid: number): number | undefined => statusField(pid, 'VmRSS');
/** The most the process ever had resident (its high-water mark). */
export const highWaterBytes = (pid: number): number | undefined => statusField(pid, 'VmHWM');

/**
 * Starts the process's high-water mark again from its current RSS (`5` to /proc/<pid>/clear_refs,
 * allowed on our own processes), so VmHWM then tells the peak since this moment.
 */
export function resetHighWater(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The process and all its live descendants, through /proc/<pid>/task/<tid>/children. */
export function processTree(root: number): number[] {
  const seen = new Set<number>();
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited since its parent listed it
    }
    for (const thread of threads) {
      for (const child of (readProc(`/proc/${pid}/task/${thread}/children`) ?? '').split(/\s+/)) if (child !== '') pending.push(Number(child));
    }
  }
  return [...seen];
}

/**
 * Peak resident memory of a live process and its live descendants (render workers) in MiB: the
 * sum of their `VmHWM`s, an upper bound of the tree's real peak. Undefined when unreadable.
 */
export function peakRssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const own = highWaterBytes(pid);
  if (own === undefined) return undefined;
  const descendants = processTree(pid).filter((child) => child !== pid);
  return descendants.reduce((sum, child) => sum + (highWaterBytes(child) ?? 0), own) / (1024 * 1024);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system seconds of a /proc `stat` file (a process's, or one thread's under task/), or undefined when unreadable. */
function statCpuSeconds(path: string): number | undefined {
  const stat = readProc(path);
  if (stat === undefined) return undefined;
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds (user + system, all threads) a live process has used so far, or undefined when
 * unreadable. Per request, this is steadier than req/s on a machine shared with other work.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of a process's main thread alone: for Node's event loop or Redis's command loop, the
 * one thread that cannot use more than one core, whatever the process's other threads do.
 */
export function mainThreadCpuSeconds(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

/** CPU seconds so far of each live descendant of `root` (render workers under a gateway or renderer), by pid. */
export function descendantCpuSeconds(root: number | undefined): Map<number, number> {
  const seconds = new Map<number, number>();
  if (root === undefined) return seconds;
  for (const pid of processTree(root)) {
    if (pid === root) continue;
    const used = cpuSeconds(pid);
    if (used !== undefined) seconds.set(pid, used);
  }
  return seconds;
}

/**
 * CPU seconds the descendants used between two `descendantCpuSeconds` readings: a process started
 * in between counts whole; one that exited in between (a recycled worker) is missed, so the figure
 * can only be low, never high.
 */
export function descendantCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}
