import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { RANK, USER_ID } from './profile-image.ts';
import { cpuSeconds, descendantCpuBetween, descendantCpuSeconds } from './proc-stats.ts';
import { runRequestLoad } from './request-load.ts';
import { percentile } from './stats.ts';

/**
 * `pnpm card:cpu [--baseline=<checkout>] [--windows=N] [--seconds=S]
 * [--concurrency=C] [--cpu-prof]`: CPU per new card of an embedded gateway, split into the gateway
 * process and its render workers (utime + stime from /proc), over several load windows so the
 * spread shows. With `--baseline`, a gateway of another checkout (a `git worktree` of main with its
 * dependencies installed) runs beside this one and the windows alternate between them, so load from
 * elsewhere on a shared machine falls on both alike. `--cpu-prof` writes V8 CPU profiles of every
 * process (gateway and workers) to bench-results/cpu-prof/<checkout>/.
 */
const argument = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3);
const baseline = argument('baseline');
const WINDOWS = Number(argument('windows') ?? 5);
const SECONDS = Number(argument('seconds') ?? 6);
const CONCURRENCY = Number(argument('concurrency') ?? 8);
const CPU_PROF = process.argv.includes('--cpu-prof');

interface Gateway {
  name: string;
  process: BenchProcess;
  url: string;
  windows: { cards: number; perSecond: number; gatewayMs: number; workersMs: number }[];
}

const workDir = mkdtempSync(join(tmpdir(), 'embedded-card-cpu-'));
let cardNumber = 0;

async function startGateway(name: string, cwd: string | undefined): Promise<Gateway> {
  const port = await freeLoopbackPort();
  const profileDir = resolve('bench-results/cpu-prof', name);
  const gateway = startBenchProcess({
    name,
    entry: GATEWAY_ENTRY,
    logFile: join(workDir, `${name}.log`),
    ...(cwd === undefined ? {} : { cwd }),
    env: {
      LOG_LEVEL: 'info',
      RATE_LIMITS: 'off',
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEYS: BENCH_API_KEY,
      MEDIA_DIR: join(workDir, `media-${name}`),
      DATABASE_PATH: join(workDir, `accounts-${name}.sqlite`),
      ...(CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
    },
  });
  await gateway.waitFor(/gateway listening/);
  return { name, process: gateway, url: `http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`, windows: [] };
}

const headers = { Authorization: BENCH_API_KEY, 'Content-Type': 'application/json' };
const newCard = () => {
  cardNumber += 1;
  return JSON.stringify({ customTag: `Benchmark card #${cardNumber}`, presenceStatus: 'online', rankData: RANK });
};

function treeCpu(pid: number | undefined): { gateway: number; workers: Map<number, number> } {
  if (pid === undefined) throw new Error('no pid');
  return { gateway: cpuSeconds(pid) ?? 0, workers: descendantCpuSeconds(pid) };
}

const gateways: Gateway[] = [];
try {
  if (baseline !== undefined) gateways.push(await startGateway('baseline', resolve(baseline)));
  gateways.push(await startGateway('this', undefined));
  for (const gateway of gateways) await runRequestLoad({ url: gateway.url, headers, body: newCard, concurrency: CONCURRENCY, seconds: 60, maxRequests: 40 });
  for (let window = 0; window < WINDOWS; window += 1) {
    for (const gateway of window % 2 === 0 ? gateways : [...gateways].reverse()) {
      // Workers are recycled now and then: one that left during the window is missed (rare; its
      // CPU is then under-counted, never over).
      const before = treeCpu(gateway.process.pid);
      const load = await runRequestLoad({ url: gateway.url, headers, body: newCard, concurrency: CONCURRENCY, seconds: SECONDS });
      const after = treeCpu(gateway.process.pid);
      const failures = load.requests - (load.statuses['200'] ?? 0);
      if (failures > 0) throw new Error(`${gateway.name}: ${failures} failed: ${JSON.stringify(load.statuses)}`);
      gateway.windows.push({
        cards: load.requests,
        perSecond: load.perSecond,
        gatewayMs: ((after.gateway - before.gateway) * 1000) / load.requests,
        workersMs: (descendantCpuBetween(before.workers, after.workers) * 1000) / load.requests,
      });
      const last = gateway.windows.at(-1)!;
      console.log(`${gateway.name} window ${window + 1}: ${last.cards} cards, ${last.perSecond.toFixed(1)}/s, gateway ${last.gatewayMs.toFixed(2)} ms/card, workers ${last.workersMs.toFixed(2)} ms/card`);
    }
  }
} finally {
  for (const gateway of gateways) await gateway.process.stop();
  rmSync(workDir, { recursive: true, force: true });
}

const spread = (values: number[]) => `${percentile(values, 0.5).toFixed(2)} (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
console.log(`\nConcurrency ${CONCURRENCY}, ${WINDOWS} windows of ${SECONDS} s each; median (min-max) over windows.\n`);
console.log('| gateway | cards/s | gateway CPU ms/card | render workers CPU ms/card | tree CPU ms/card |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const gateway of gateways) {
  const { windows } = gateway;
  console.log(
    `| ${gateway.name} | ${spread(windows.map((w) => w.perSecond))} | ${spread(windows.map((w) => w.gatewayMs))} | ${spread(windows.map((w) => w.workersMs))} | ${spread(windows.map((w) => w.gatewayMs + w.workersMs))} |`,
  );
}
