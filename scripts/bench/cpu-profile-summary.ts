import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * `node scripts/bench/cpu-profile-summary.ts <file.cpuprofile> [top=25] [last seconds]`: a V8 CPU
 * profile (from `node --cpu-prof`, e.g. `pnpm bench --distributed --cpu-prof=<dir>`) as self time
 * per function, busiest first, with its share of the sampled busy time ((idle) left out). With a
 * last-seconds figure only the samples of the profile's last seconds count (the distributed bench's
 * paced windows come last: 2 × (3 s + --window), then the gateway stops), not its start-up.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function summarizeProfile(profile: CpuProfile, top: number, lastSeconds = Number.POSITIVE_INFINITY): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  // Sample times from the deltas; the last sample is the profile's end.
  const times: number[] = [];
  let clock = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((clock += delta));
  const from = profile.endTime - lastSeconds * 1e6;
  profile.samples.forEach((id, index) => {
    if (times[index]! < from) return;
    const node = byId.get(id)!;
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idleUs += delta;
      return;
    }
    busyUs += delta;
    const where = node.callFrame.url === '' ? '' : ` ${basename(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    const key = `${name}${where}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  });
  const wallMs = (profile.endTime - Math.max(profile.startTime, from)) / 1000;
  const lines = [`${(busyUs / 1000).toFixed(0)} ms busy of ${wallMs.toFixed(0)} ms sampled (idle ${(idleUs / 1000).toFixed(0)} ms)`, '| self ms | % of busy | function |', '|--:|--:|--|'];
  for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| ${(us / 1000).toFixed(1)} | ${((us / busyUs) * 100).toFixed(1)} | ${key} |`);
  return lines.join('\n');
}

if (import.meta.main) {
  const [file, top, last] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: node scripts/bench/cpu-profile-summary.ts <file.cpuprofile> [top]');
  console.log(summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 25), last === undefined ? undefined : Number(last)));
}
