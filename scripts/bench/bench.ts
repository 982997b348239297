import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { REPO_ROOT } from '../local-stack/service-process.ts';
import { HAS_TASKSET } from './bench-process.ts';
import { benchAnimatedCard, benchCardRender } from './card-render.ts';
import { benchDistributed, distributedReport, distributedSettingsFromArgs } from './distributed.ts';
import { benchLightEndpoints } from './light-endpoints.ts';
import { benchProfileImage, STACK_RENDER_WORKERS } from './profile-image.ts';
import { benchRendererScaling } from './renderer-scaling.ts';
import { checkTargets, markdownReport, type BenchResults } from './report.ts';
import { summarizeScale } from './scale-report.ts';
import { scaleSettingsFromArgs } from './scale-settings.ts';

/**
 * `pnpm bench [--quick] [--only=light,card,profile] [--baseline-gateway=<checkout>]`: the whole
 * product measured in one run on loopback, about 6 minutes on the 2-core machine (--quick: about 2).
 * `--baseline-gateway` also runs the gateway of another checkout (e.g. `git worktree add` of the
 * last commit, with its dependencies installed) in the light-endpoint runs, for before/after numbers.
 * 1. light endpoints through the full gateway vs a plain Koa app and a bare node:http server (wrk),
 *    in interleaved short windows with CPU per request from /proc, reported as spreads;
 * 2. card draw and encode time and PNG size for three option sets, and what each stored format
 *    (PNG, WebP, AVIF, GIF) costs and weighs on them;
 * 3. POST /v1/profile-image end to end, embedded and in the `./run stack` topology with 1 and 2
 *    renderers, new and repeated cards at concurrency 1 and 16;
 * 4. peak RSS of every gateway and renderer process.
 * Prints markdown tables and each target as PASS/MISS; writes bench-results/bench.json.
 * `--scale` (root, cgroup v1) runs only the renderer scaling measurement instead, each renderer in a
 * cgroup with a CPU quota (flags in scale-settings.ts); it writes bench-results/scale.json.
 * `--distributed` runs only the system-scale measurement (distributed.ts: gateways, no-op renderers
 * and Redis Clusters of several masters); it prints its table and writes bench-results/distributed.json.
 */
const quick = process.argv.includes('--quick');
const onlyArgument = process.argv.find((argument) => argument.startsWith('--only='));
const baselineArgument = process.argv.find((argument) => argument.startsWith('--baseline-gateway='));
const baselineCheckout = baselineArgument === undefined ? undefined : resolve(baselineArgument.slice('--baseline-gateway='.length));
const scale = process.argv.includes('--scale');
if (process.argv.includes('--distributed')) {
  const settings = distributedSettingsFromArgs(process.argv);
  const began = Date.now();
  const log = (line: string) => console.log(`[${Math.round((Date.now() - began) / 1000)} s] ${line}`);
  log(`distributed: gateways ${settings.gatewayCounts.join(', ')}, shards ${settings.shardCounts.join(', ')}, ${settings.renderers} no-op renderers, ${settings.rounds} round(s): ${settings.idleSeconds} s idle, then ${settings.windowSeconds} s windows at ${settings.rates.join(' and ')} cards/s offered${settings.perGateway ? ' per gateway' : ' in all'}${settings.observer ? ', plus an observer gateway' : ''}; load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const measurements = await benchDistributed(settings, log);
  console.log(`\n${distributedReport(measurements)}\n\nload average after: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const output = resolve(REPO_ROOT, 'bench-results/distributed.json');
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify({ date: new Date().toISOString(), settings, measurements }, null, 2)}\n`);
  process.exit(0);
}
const phases = new Set((onlyArgument?.slice('--only='.length) ?? (scale ? 'scale' : 'light,card,profile')).split(','));
// Read before anything starts: a bad flag stops the run at once.
const scaleSettings = phases.has('scale') ? scaleSettingsFromArgs(process.argv) : undefined;
const OUTPUT = resolve(REPO_ROOT, scale ? 'bench-results/scale.json' : 'bench-results/bench.json');

const startedAt = Date.now();
const progress = (line: string) => {
  const elapsed = Math.round((Date.now() - startedAt) / 1000);
  console.log(`[${String(Math.floor(elapsed / 60)).padStart(2, '0')}:${String(elapsed % 60).padStart(2, '0')}] ${line}`);
};

const workDir = mkdtempSync(join(tmpdir(), 'utility-api-bench-'));
const results: BenchResults = {};
const problems: string[] = [];
const loadBefore = loadavg();

try {
  if (phases.has('light')) {
    const install = spawnSync('bash', [join(REPO_ROOT, 'scripts/bench/install-wrk.sh')], { stdio: 'inherit' });
    if (install.status !== 0) {
      problems.push('light endpoints not measured: wrk is missing and could not be installed');
    } else {
      // Short windows, many of them, taking turns: on a shared machine the spread over windows
      // says more than one long run per server.
      const rounds = quick ? 3 : 12;
      const seconds = quick ? 1 : 2;
      const warmupRounds = 1;
      progress(
        `light endpoints: gateway, plain Koa and bare node:http${baselineCheckout === undefined ? '' : ' and the baseline gateway'} in turns, ${rounds} rounds of ${seconds} s windows after ${warmupRounds} warm-up round, 50 connections${HAS_TASKSET ? ', servers on core 0 and wrk on core 1' : ' (no taskset: unpinned)'}`,
      );
      results.light = await benchLightEndpoints({ workDir, rounds, seconds, warmupRounds, connections: 50, equalLoadRounds: quick ? 2 : 6, progress, ...(baselineCheckout === undefined ? {} : { baselineCheckout }) });
    }
  }
  if (phases.has('card')) {
    const renders = quick ? 60 : 220;
    progress(`card render: 3 option sets, ${renders} distinct cards each`);
    results.card = await benchCardRender({ renders, warmup: quick ? 5 : 20, formatCards: quick ? 5 : 20, progress });
    progress('card render: the animated card as animated WebP and GIF');
    results.animatedCard = await benchAnimatedCard({ renders: quick ? 2 : 6 });
  }
  if (phases.has('profile')) {
    progress(`profile-image: embedded, then the stack with 1 and 2 renderers (${STACK_RENDER_WORKERS} render worker each)`);
    results.profileImage = await benchProfileImage({
      workDir,
      seconds: quick ? { newC1: 3, newC8: 3, newC16: 3, repeat: 2 } : { newC1: 6, newC8: 5, newC16: 8, repeat: 3 },
      c8Windows: quick ? 2 : 4,
      progress,
    });
  }
  if (scaleSettings) {
    const { rendererCounts, cpus, rounds, windowSeconds } = scaleSettings;
    progress(`scale: renderers ${rendererCounts.join(', ')}, each in a cgroup with ${cpus} CPU, ${rounds} round(s) of ${windowSeconds} s windows`);
    results.scale = summarizeScale(scaleSettings, await benchRendererScaling(scaleSettings, progress));
  }
} catch (error) {
  problems.push(`bench stopped early: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const checks = checkTargets(results);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average before ${loadBefore.map((value) => value.toFixed(2)).join(' ')}, after ${loadavg()
  .map((value) => value.toFixed(2))
  .join(' ')}`;
const heading = [
  `## pnpm bench${scale ? ' --scale' : ''}${quick ? ' --quick' : ''}: ${new Date().toISOString()}, ${Math.round((Date.now() - startedAt) / 1000)} s`,
  '',
  scale
    ? `${machine}. The ./run stack topology; gateway and renderers at LOG_LEVEL=info, rate limits on with budgets no run uses up.`
    : `${machine}. Gateway: LOG_LEVEL=info to a file, RATE_LIMITS=off, embedded mode unless said.`,
].join('\n');
console.log(`\n${markdownReport(results, checks, heading)}`);
for (const problem of problems) console.log(`\n**${problem}**`);

mkdirSync(dirname(OUTPUT), { recursive: true });
writeFileSync(
  OUTPUT,
  `${JSON.stringify({ date: new Date().toISOString(), quick, machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadBefore, loadAfter: loadavg() }, results, targets: checks, problems }, null, 2)}\n`,
);
console.log(`\nwritten to ${OUTPUT}`);
process.exitCode = problems.length > 0 ? 1 : 0;
