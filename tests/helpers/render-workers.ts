import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Render worker processes seen from outside, through /proc (Linux): the children of a service
 * process, and the CPU they use, to catch a worker while it draws a card.
 */
export function childPids(parentPid: number): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${parentPid}/task`)) {
    const children = readFileSync(`/proc/${parentPid}/task/${task}/children`, 'utf8').trim();
    if (children !== '') pids.push(...children.split(/\s+/).map(Number));
  }
  return pids;
}

/** User plus system CPU clock ticks a process has used, or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until one of the render workers of the given service processes starts burning CPU (an idle
 * worker uses none: it only waits on its IPC channel), then sends it `signal` and returns its
 * pid. Call it after sending the one request whose card should be caught in the act; `stop`
 * ends the wait (the request was answered without any worker drawing).
 */
export async function killWorkerOnceDrawing(parentPids: readonly number[], signal: NodeJS.Signals, stop: AbortSignal): Promise<number> {
  const baseline = new Map<number, number>();
  for (const parent of parentPids) for (const pid of childPids(parent)) baseline.set(pid, cpuTicks(pid) ?? 0);
  for (;;) {
    stop.throwIfAborted();
    for (const [pid, ticks] of baseline) {
      // Two ticks (20 ms at the usual 100 Hz) rules out a stray wake-up: this worker is drawing.
      if ((cpuTicks(pid) ?? 0) - ticks >= 2) {
        process.kill(pid, signal);
        return pid;
      }
    }
    // sleep-ok: the poll interval of a loop that ends on a worker burning CPU or on `stop`.
    await sleep(2);
  }
}
