/** Redis `INFO commandstats`, read and compared, for Redis commands per card. */

export interface CommandCount {
  calls: number;
  usec: number;
}

/**
 * `cmdstat_<name>:calls=N,usec=N,...` lines into counts by command name (subcommands keep their
 * `|` form, e.g. `client|setname`). Commands run inside Lua scripts (BullMQ's) are counted too.
 */
export function parseCommandStats(info: string): Map<string, CommandCount> {
  const counts = new Map<string, CommandCount>();
  for (const line of info.split(/\r?\n/)) {
    const match = /^cmdstat_([^:]+):(.*)$/.exec(line.trim());
    if (!match) continue;
    const fields = new Map(match[2]!.split(',').map((pair) => pair.split('=') as [string, string]));
    const calls = Number(fields.get('calls'));
    const usec = Number(fields.get('usec'));
    if (Number.isFinite(calls) && Number.isFinite(usec)) counts.set(match[1]!, { calls, usec });
  }
  return counts;
}

/**
 * What happened between two snapshots, most called first, leaving out `ignore` (the bench's own
 * INFO calls). A command absent before started at zero; counts that went down (a CONFIG
 * RESETSTAT or a restarted Redis) are refused rather than reported as negative traffic.
 */
export function commandDelta(before: Map<string, CommandCount>, after: Map<string, CommandCount>, ignore: readonly string[] = ['info']): { command: string; calls: number; usec: number }[] {
  const delta: { command: string; calls: number; usec: number }[] = [];
  for (const [command, now] of after) {
    if (ignore.includes(command)) continue;
    const then = before.get(command) ?? { calls: 0, usec: 0 };
    if (now.calls < then.calls) throw new Error(`Redis command counts went down for ${command} (statistics reset or Redis restarted)`);
    if (now.calls > then.calls) delta.push({ command, calls: now.calls - then.calls, usec: now.usec - then.usec });
  }
  return delta.sort((a, b) => b.calls - a.calls || a.command.localeCompare(b.command));
}
