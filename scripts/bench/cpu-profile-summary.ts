import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * `node scripts/bench/cpu-profile-summary.ts <file.cpuprofile> [top=25]`: a V8 CPU profile (from
 * `node --cpu-prof`, e.g. `pnpm bench --distributed --cpu-prof=<dir>`) as self time per function,
 * busiest first, with the share of the sampled busy time ((idle) left out) and of garbage collection.
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

export function summarizeProfile(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, index) => {
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
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const lines = [`${(busyUs / 1000).toFixed(0)} ms busy of ${wallMs.toFixed(0)} ms sampled (idle ${(idleUs / 1000).toFixed(0)} ms)`, '| self ms | % of busy | function |', '|--:|--:|--|'];
  for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| ${(us / 1000).toFixed(1)} | ${((us / busyUs) * 100).toFixed(1)} | ${key} |`);
  return lines.join('\n');
}

if (import.meta.main) {
  const [file, top] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: node scripts/bench/cpu-profile-summary.ts <file.cpuprofile> [top]');
  console.log(summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 25)));
}
