import { parseCpuShare } from './cpu-cgroups.ts';

export interface ScaleSettings {
  /** Renderer counts to compare, the first one the base of the ratios (1, 2, 4). */
  rendererCounts: number[];
  /** Each renderer's CPU quota, in CPUs. */
  cpus: number;
  /** Each count is measured this many times, the counts interleaved (1, 2, 4, 1, 2, 4...). */
  rounds: number;
  warmupSeconds: number;
  windowSeconds: number;
  /** Closed-loop clients per renderer: more than a renderer works on at once, so a queue always waits. */
  clientsPerRenderer: number;
  /** RENDER_CONCURRENCY of each renderer (jobs it holds at once). */
  rendererConcurrency: number;
  /** RENDER_WORKERS of each renderer (render worker processes). */
  renderWorkers: number;
}

const DEFAULTS: ScaleSettings = { rendererCounts: [1, 2, 4], cpus: 0.25, rounds: 3, warmupSeconds: 10, windowSeconds: 20, clientsPerRenderer: 8, rendererConcurrency: 4, renderWorkers: 1 };
const QUICK: Partial<ScaleSettings> = { rounds: 1, warmupSeconds: 5, windowSeconds: 10 };

function positiveInteger(flag: string, text: string, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) throw new Error(`--${flag} must be a whole number from 1 to ${max}, not "${text}"`);
  return value;
}

/**
 * The `pnpm bench --scale` flags: --renderer-cpus=0.25, --scale-renderers=1,2,4, --scale-rounds=3,
 * --scale-warmup=10 and --scale-seconds=20 (seconds), --clients-per-renderer=8,
 * --render-concurrency=4, --render-workers=1; --quick shortens the defaults. A bad value is an error, never a default.
 */
export function scaleSettingsFromArgs(argv: readonly string[]): ScaleSettings {
  const settings: ScaleSettings = { ...DEFAULTS, ...(argv.includes('--quick') ? QUICK : {}) };
  const flag = (name: string) => argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const cpus = flag('renderer-cpus');
  if (cpus !== undefined) settings.cpus = parseCpuShare(cpus);
  const counts = flag('scale-renderers');
  if (counts !== undefined) {
    settings.rendererCounts = counts.split(',').map((count) => positiveInteger('scale-renderers', count.trim(), 32));
    if (new Set(settings.rendererCounts).size !== settings.rendererCounts.length) throw new Error('--scale-renderers lists a count twice');
  }
  const integers: [string, 'rounds' | 'warmupSeconds' | 'windowSeconds' | 'clientsPerRenderer' | 'rendererConcurrency' | 'renderWorkers', number][] = [
    ['scale-rounds', 'rounds', 20],
    ['scale-warmup', 'warmupSeconds', 600],
    ['scale-seconds', 'windowSeconds', 600],
    ['clients-per-renderer', 'clientsPerRenderer', 256],
    ['render-concurrency', 'rendererConcurrency', 256],
    ['render-workers', 'renderWorkers', 64],
  ];
  for (const [name, key, max] of integers) {
    const text = flag(name);
    if (text !== undefined) settings[key] = positiveInteger(name, text, max);
  }
  return settings;
}
