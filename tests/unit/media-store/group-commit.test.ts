import test from 'ava';
import { groupCommit } from '../../../packages/media-store/src/atomic-write.ts';

/** A directory sync the test finishes by hand: `started` has one entry per sync begun. */
function manualSync() {
  const started: (() => void)[] = [];
  const sync = () => new Promise<void>((resolve) => started.push(resolve));
  return { started, sync, finish: (index: number) => started[index]!() };
}

const settled = (promise: Promise<void>) => {
  const state = { done: false };
  void promise.then(() => (state.done = true));
  return state;
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('alone, a write syncs at once', async (t) => {
  const manual = manualSync();
  const commit = groupCommit(manual.sync);
  const first = settled(commit());
  t.is(manual.started.length, 1);
  manual.finish(0);
  await turn();
  t.true(first.done);
});

test('writes during a running sync wait for one sync that starts after it, and share it', async (t) => {
  const manual = manualSync();
  const commit = groupCommit(manual.sync);
  const first = settled(commit());
  // Five renames land while the first sync runs: it may have started before them.
  const later = Array.from({ length: 5 }, () => settled(commit()));
  await turn();
  t.is(manual.started.length, 1, 'no second sync while the first runs');
  t.false(later.some((state) => state.done));
  manual.finish(0);
  await turn();
  t.true(first.done);
  t.is(manual.started.length, 2, 'one more sync for all five');
  t.false(later.some((state) => state.done), 'not covered by the sync that was running when they came');
  manual.finish(1);
  await turn();
  t.true(later.every((state) => state.done));
  t.is(manual.started.length, 2);
});

test('a write that comes while the second sync runs gets a third', async (t) => {
  const manual = manualSync();
  const commit = groupCommit(manual.sync);
  void commit();
  const second = settled(commit());
  manual.finish(0);
  await turn();
  const third = settled(commit());
  await turn();
  t.is(manual.started.length, 2);
  manual.finish(1);
  await turn();
  t.true(second.done);
  t.false(third.done);
  t.is(manual.started.length, 3);
  manual.finish(2);
  await turn();
  t.true(third.done);
});
