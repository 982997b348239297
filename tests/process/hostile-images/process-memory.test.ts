import { spawn } from 'node:child_process';
import { once } from 'node:events';
import test from 'ava';
import { highWaterBytes, MIB, processTree, residentBytes, sampleProcessTrees, treeResidentBytes } from '../../support/hostile-images/process-memory.ts';

/** A node process whose child (a grandchild of the test) fills `megabytes` of memory, then says so. */
function parentOfHungryChild(megabytes: number) {
  const child = `const b = Buffer.alloc(${megabytes} * 1024 * 1024, 7); console.log('filled', b.length); setInterval(() => {}, 1000);`;
  const parent = `const { spawn } = require('node:child_process'); spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ['-e', parent], { stdio: ['ignore', 'pipe', 'inherit'] });
}

test('the sampler counts the memory of descendants, not only of the process itself', async (t) => {
  const parent = parentOfHungryChild(300);
  try {
    await once(parent.stdout, 'data');
    const sampler = sampleProcessTrees([{ name: 'parent', pid: parent.pid! }], 20);
    // sleep-ok: lets the 20 ms sampling timer run (timers due earlier fire first); samples are counted below.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [peak] = sampler.stop();
    const tree = processTree(parent.pid!);
    t.is(tree.length, 2, 'the parent and its child');
    t.true(residentBytes(parent.pid!)! < 150 * MIB, 'the parent alone is small');
    t.true(treeResidentBytes(parent.pid!) > 300 * MIB, 'the tree holds the child');
    t.is(peak!.name, 'parent');
    t.true(peak!.peakTreeBytes > 300 * MIB, `peak ${peak!.peakTreeBytes}`);
    t.is(peak!.peakDescendants, 1);
    t.true(peak!.samples >= 3);
    t.true(peak!.highWaterBytes > 0 && peak!.highWaterBytes < 150 * MIB, 'VmHWM is the parent process alone');
  } finally {
    // A child outlives its parent: end the tree this test started, the child first.
    for (const pid of processTree(parent.pid!).reverse()) process.kill(pid, 'SIGKILL');
  }
});

test('a process that has exited has an empty resident size and a tree of itself', (t) => {
  t.is(residentBytes(2 ** 22 + 12345), undefined);
  t.deepEqual(processTree(2 ** 22 + 12345), [2 ** 22 + 12345]);
});

test('the high-water mark is reset when sampling starts, so it reports the peak since then', async (t) => {
  // Fills 300 MB, lets it go, then says so: VmHWM stays high until reset, RSS falls back.
  const script = `let b = Buffer.alloc(300 * 1024 * 1024, 7); b = null; globalThis.gc(); console.log('freed'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--expose-gc', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await once(child.stdout, 'data');
    t.true(highWaterBytes(child.pid!)! > 300 * MIB, 'the lifetime peak holds the buffer');
    const [peak] = sampleProcessTrees([{ name: 'child', pid: child.pid! }]).stop();
    t.true(peak!.highWaterBytes < 200 * MIB, `after the reset: ${peak!.highWaterBytes}`);
  } finally {
    child.kill('SIGKILL');
  }
});
