import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import test from 'ava';
import { cgroupProblem, createRendererGroups } from '../../../scripts/bench/cpu-cgroups.ts';

const problem = cgroupProblem();

if (problem !== undefined) {
  // Not root, or no cgroup v1 cpu/cpuacct: the bench must stop with the reason, not run unlimited.
  test('without writable cgroup v1 CPU hierarchies, making renderer groups fails with the reason', (t) => {
    t.throws(() => createRendererGroups(1, 0.25), { message: problem });
  });
} else {
  test('a renderer group has the quota, its command prefix puts the process inside it, and remove() leaves nothing behind', async (t) => {
    const groups = createRendererGroups(2, 0.25);
    t.teardown(() => groups.remove());
    const [first, second] = groups.groups;
    const cpuDirectory = `/sys/fs/cgroup/cpu/${first!.name}`;
    t.is(readFileSync(`${cpuDirectory}/cpu.cfs_quota_us`, 'utf8').trim(), '25000');
    t.is(readFileSync(`${cpuDirectory}/cpu.cfs_period_us`, 'utf8').trim(), '100000');
    t.not(first!.name, second!.name);
    // The bench process itself waits in a weighted group without a quota, and goes back to the root on remove().
    const infrastructure = `utility-api-scale-${process.pid}-infrastructure`;
    t.true(readFileSync('/proc/self/cgroup', 'utf8').includes(`:cpu:/${infrastructure}\n`));
    t.is(readFileSync(`/sys/fs/cgroup/cpu/${infrastructure}/cpu.cfs_quota_us`, 'utf8').trim(), '-1');

    // What the renderer gets: the prefix execs the command, which then runs (with its children) in both groups.
    const [command, ...args] = [...first!.commandPrefix, '/bin/sh', '-c', 'cat /proc/self/cgroup; sh -c "cat /proc/self/cgroup"'];
    const joined = spawnSync(command, args, { encoding: 'utf8' });
    t.is(joined.status, 0, joined.stderr);
    const lines = joined.stdout.split('\n');
    t.is(lines.filter((line) => line.endsWith(`:cpu:/${first!.name}`)).length, 2);
    t.is(lines.filter((line) => line.endsWith(`:cpuacct:/${first!.name}`)).length, 2);

    // A busy loop for 0.6 s of wall time gets at most a quarter of it (plus one period's quota);
    // cpuacct counts what it used and CFS counts the periods it was throttled in.
    const cpuBefore = first!.cpuSeconds();
    const started = performance.now();
    const busy = spawnSync(command, [...first!.commandPrefix.slice(1), '/bin/sh', '-c', 'end=$(($(date +%s%N) + 600000000)); while [ $(date +%s%N) -lt $end ]; do :; done'], { encoding: 'utf8' });
    const wallSeconds = (performance.now() - started) / 1000;
    t.is(busy.status, 0, busy.stderr);
    const used = first!.cpuSeconds() - cpuBefore;
    t.true(used > 0 && used <= 0.25 * wallSeconds + 0.025 + 0.02, `used ${used} s of CPU in ${wallSeconds} s under a 0.25 CPU quota`);
    t.true(first!.throttling().throttledPeriods > 0);

    // A process still inside (one the bench started and did not stop) is moved out and killed, so the groups can go.
    const sleeper = spawn(second!.commandPrefix[0]!, [...second!.commandPrefix.slice(1), 'sleep', '30'], { stdio: 'ignore' });
    t.teardown(() => sleeper.kill('SIGKILL'));
    // The prefix joins cpu first, then cpuacct: wait for both, or remove() could read cpuacct before the join.
    const secondProcs = ['cpu', 'cpuacct'].map((hierarchy) => `/sys/fs/cgroup/${hierarchy}/${second!.name}/cgroup.procs`);
    const joinedBoth = () => secondProcs.every((procs) => readFileSync(procs, 'utf8').split('\n').includes(String(sleeper.pid)));
    for (let tries = 0; tries < 100 && !joinedBoth(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    t.true(joinedBoth());
    const sleeperExit = once(sleeper, 'exit');
    groups.remove();
    for (const group of groups.groups) for (const hierarchy of ['cpu', 'cpuacct']) t.false(existsSync(`/sys/fs/cgroup/${hierarchy}/${group.name}`));
    t.false(existsSync(`/sys/fs/cgroup/cpu/${infrastructure}`));
    t.true(readFileSync('/proc/self/cgroup', 'utf8').includes(':cpu:/\n'));
    t.deepEqual(await sleeperExit, [null, 'SIGKILL']);
  });
}
