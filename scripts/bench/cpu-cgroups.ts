/**
 * CPU-limited cgroups (v1) for `pnpm bench --scale`: each renderer runs in a group of its own with a
 * CFS quota, standing for one small machine. Groups are made in both the `cpu` hierarchy (quota,
 * throttling counts) and the `cpuacct` one (CPU used), which this kind of host mounts separately.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
const HIERARCHIES = ['cpu', 'cpuacct'] as const;
/** The prefix of every group this bench makes; the bench's pid follows, so stale ones can be told apart. */
const GROUP_PREFIX = 'utility-api-scale-';
/** CFS period: the kernel default. The quota is a share of it. */
export const CFS_PERIOD_US = 100_000;
/** The kernel refuses quotas under 1 ms. */
const MIN_QUOTA_US = 1000;
/**
 * Weight of each group against other work (a plain task weighs 1024). A small machine's quarter of
 * a CPU is its own: with a high weight a renderer's group gets its quota whenever it asks, even
 * while other processes keep the shared cores busy, so the quota, not the neighbours, bounds it.
 * The bench process and what it starts besides renderers (gateway, Redis, the S3 stand-in) get the
 * same weight without a quota, standing for machines of their own: on a shared host they would
 * otherwise feed the renderers only as fast as the neighbours let them.
 */
const GROUP_SHARES = 8192;

/** The CFS quota in µs per period for a share of one CPU (0.25 = a quarter of a core). */
export function cfsQuotaMicros(cpus: number, periodMicros = CFS_PERIOD_US): number {
  if (!Number.isFinite(cpus) || cpus <= 0) throw new Error(`a CPU quota must be a positive number of CPUs, not ${cpus}`);
  const quota = Math.round(cpus * periodMicros);
  if (quota < MIN_QUOTA_US) throw new Error(`${cpus} CPU is under the kernel's smallest quota (${MIN_QUOTA_US} µs per ${periodMicros} µs period)`);
  return quota;
}

/** `--renderer-cpus=0.25`: a positive share of one CPU; a typo is refused, never read as "no limit". */
export function parseCpuShare(text: string): number {
  if (!/^\d*\.?\d+$/.test(text.trim())) throw new Error(`--renderer-cpus must be a number of CPUs such as 0.25, not "${text}"`);
  const cpus = Number(text);
  cfsQuotaMicros(cpus);
  return cpus;
}

export interface ThrottleStats {
  periods: number;
  throttledPeriods: number;
  throttledSeconds: number;
}

/** The `cpu.stat` file of a cgroup v1 `cpu` group (nr_periods, nr_throttled, throttled_time in ns). */
export function parseCpuStat(text: string): ThrottleStats {
  const fields = new Map(
    text
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((parts) => parts.length === 2)
      .map(([key, value]) => [key!, Number(value)]),
  );
  const field = (name: string) => {
    const value = fields.get(name);
    if (value === undefined || !Number.isFinite(value)) throw new Error(`cpu.stat has no ${name}`);
    return value;
  };
  return { periods: field('nr_periods'), throttledPeriods: field('nr_throttled'), throttledSeconds: field('throttled_time') / 1e9 };
}

/** The pid a group name was made by (`utility-api-scale-<pid>-...`), or undefined for other groups. */
export function groupOwnerPid(name: string): number | undefined {
  const match = new RegExp(`^${GROUP_PREFIX}(\\d+)-`).exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * Why this machine cannot run quota'd renderers, or undefined when it can: the cgroup v1 `cpu` and
 * `cpuacct` hierarchies mounted and writable (root). A cgroup v2-only host is named as such.
 */
export function cgroupProblem(): string | undefined {
  const missing = HIERARCHIES.filter((hierarchy) => !existsSync(join(CGROUP_ROOT, hierarchy, 'cgroup.procs')));
  if (missing.length > 0) {
    const v2 = existsSync(join(CGROUP_ROOT, 'cgroup.controllers')) || existsSync(join(CGROUP_ROOT, 'unified', 'cgroup.controllers'));
    return (
      `pnpm bench --scale needs the cgroup v1 ${missing.join(' and ')} hierarchies at ${CGROUP_ROOT}/{cpu,cpuacct}` +
      (v2 ? '; this machine has cgroup v2 only, which this bench does not drive' : '; none are mounted')
    );
  }
  if (process.getuid?.() !== 0) return 'pnpm bench --scale must run as root: it makes CPU-limited cgroups for the renderers (sudo pnpm bench --scale)';
  return undefined;
}

function writeValue(path: string, value: string | number): void {
  try {
    writeFileSync(path, String(value));
  } catch (error) {
    throw new Error(`could not write ${value} to ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** How often, and how far apart, a busy group is emptied and removed again. */
const REMOVE_ATTEMPTS = 50;
const REMOVE_RETRY_MS = 20;

/**
 * Removes a group; false when it is still busy. Processes still in it (a renderer or render
 * worker that outlived its stack, started by this bench) are moved to the root group so the
 * group can go, and killed: nothing this bench started outlives it.
 */
function removeGroup(directory: string, hierarchy: string): boolean {
  // A process caught mid-join (the prefix writes itself into one hierarchy, then the other) or a
  // killed one still exiting keeps the group busy for a moment: move and kill again, then retry.
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt += 1) {
    if (!existsSync(directory)) return true;
    try {
      for (const pid of readFileSync(join(directory, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number)) {
        try {
          writeFileSync(join(CGROUP_ROOT, hierarchy, 'cgroup.procs'), String(pid));
          if (pid !== process.pid) process.kill(pid, 'SIGKILL');
        } catch {
          // Exited meanwhile.
        }
      }
      rmdirSync(directory);
      return true;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, REMOVE_RETRY_MS);
    }
  }
  return false;
}

export interface RendererGroup {
  name: string;
  /** Prepended to the renderer's command: joins both groups, then execs the renderer. */
  commandPrefix: readonly string[];
  /** CPU seconds the group's processes used so far (cpuacct.usage). */
  cpuSeconds(): number;
  throttling(): ThrottleStats;
}

export interface RendererGroups {
  cpus: number;
  groups: RendererGroup[];
  /**
   * Moves this process back to the root groups and removes every group made; processes still in
   * one are killed. Idempotent.
   */
  remove(): void;
}

/**
 * Groups that earlier runs left behind (their bench process gone, e.g. SIGKILLed) are removed, so
 * they do not pile up; groups of a bench still running are left alone.
 */
function removeStaleGroups(): void {
  for (const hierarchy of HIERARCHIES) {
    for (const entry of readdirSync(join(CGROUP_ROOT, hierarchy))) {
      const owner = groupOwnerPid(entry);
      if (owner !== undefined && owner !== process.pid && !existsSync(`/proc/${owner}`)) removeGroup(join(CGROUP_ROOT, hierarchy, entry), hierarchy);
    }
  }
}

/**
 * Makes `count` groups, each limited to `cpus` of one CPU, and moves this process into a group of
 * its own with the same weight and no quota. The caller removes them (`remove()`); they are also
 * removed when this process exits, and on any failure while making them.
 */
export function createRendererGroups(count: number, cpus: number): RendererGroups {
  const problem = cgroupProblem();
  if (problem) throw new Error(problem);
  const quota = cfsQuotaMicros(cpus);
  removeStaleGroups();
  const made: { directory: string; hierarchy: string }[] = [];
  let removed = false;
  const remove = () => {
    if (removed) return;
    try {
      writeFileSync(join(CGROUP_ROOT, 'cpu', 'cgroup.procs'), String(process.pid));
    } catch {
      // It was never moved (the failure came first); removeGroup moves it anyway.
    }
    const busy = made.filter(({ directory, hierarchy }) => !removeGroup(directory, hierarchy));
    if (busy.length > 0) console.error(`could not remove cgroups ${busy.map(({ directory }) => directory).join(', ')} (rmdir them once their processes exit)`);
    removed = true;
    process.off('exit', remove);
  };
  // The last resort: a crash or process.exit() elsewhere still leaves no group behind.
  process.on('exit', remove);
  const makeGroup = (hierarchy: string, name: string) => {
    const directory = join(CGROUP_ROOT, hierarchy, name);
    try {
      // mkdir in a cgroup hierarchy makes the group (with its control files).
      mkdirSync(directory);
    } catch (error) {
      throw new Error(`could not make the cgroup ${directory}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    made.push({ directory, hierarchy });
    return directory;
  };
  try {
    // This process first: the gateway, Redis and the S3 stand-in it starts later inherit the group.
    const infrastructure = makeGroup('cpu', `${GROUP_PREFIX}${process.pid}-infrastructure`);
    writeValue(join(infrastructure, 'cpu.shares'), GROUP_SHARES);
    writeValue(join(infrastructure, 'cgroup.procs'), process.pid);
    const groups = Array.from({ length: count }, (_, index): RendererGroup => {
      const name = `${GROUP_PREFIX}${process.pid}-renderer-${index + 1}`;
      const [cpuDirectory, cpuacctDirectory] = HIERARCHIES.map((hierarchy) => makeGroup(hierarchy, name)) as [string, string];
      writeValue(join(cpuDirectory, 'cpu.cfs_period_us'), CFS_PERIOD_US);
      writeValue(join(cpuDirectory, 'cpu.cfs_quota_us'), quota);
      writeValue(join(cpuDirectory, 'cpu.shares'), GROUP_SHARES);
      return {
        name,
        // sh writes its own pid ($$) into both groups and execs the renderer in place: node, its
        // threads and every render worker it forks start inside the groups and stay there.
        commandPrefix: ['/bin/sh', '-c', 'echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"', 'join-cgroups', join(cpuDirectory, 'cgroup.procs'), join(cpuacctDirectory, 'cgroup.procs')],
        cpuSeconds: () => Number(readFileSync(join(cpuacctDirectory, 'cpuacct.usage'), 'utf8')) / 1e9,
        throttling: () => parseCpuStat(readFileSync(join(cpuDirectory, 'cpu.stat'), 'utf8')),
      };
    });
    return { cpus, groups, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
