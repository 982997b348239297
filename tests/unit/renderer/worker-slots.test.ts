import test from 'ava';
import { START_RETRY_MAX_MS, startRetryDelayMs, type SlotWorker, type WorkerSlot, WorkerSlots } from '../../../packages/render-engine/src/card-pool/worker-slots.ts';

type Fake = { ready: boolean; idle: boolean; rssBytes: number | undefined; name: string };
const worker = (name: string, state: Partial<Fake> = {}): WorkerSlot<Fake, string> => ({
  process: { name, ready: true, idle: true, rssBytes: undefined, ...state },
  current: undefined,
  retiring: false,
});
const slotsOf = (...list: WorkerSlot<Fake, string>[]) => {
  const slots = new WorkerSlots<SlotWorker & Fake, string>();
  for (const slot of list) slots.add(slot);
  return slots;
};
const names = (list: Iterable<WorkerSlot<Fake, string>>) => [...list].map((slot) => slot.process.name);

test('idle workers take cards before a retiring one; busy and starting workers take none', (t) => {
  const retiring = { ...worker('retiring'), retiring: true };
  const busy = { ...worker('busy', { idle: false }), current: 'card' };
  const starting = worker('starting', { ready: false, idle: false });
  const slots = slotsOf(retiring, worker('a'), busy, starting, worker('b'));
  t.deepEqual(names(slots.idle()), ['a', 'b', 'retiring']);
  t.is(slots.active, 4, 'the retiring worker does not count towards the size');
  t.is(slots.ready, 4, 'the starting worker is not ready');
  t.is(slots.busy, 1);
});

test('a retiring worker goes only while the other ready workers are still the pool size, and only when idle', (t) => {
  const old = { ...worker('old'), retiring: true };
  const replacement = worker('replacement', { ready: false, idle: false });
  const slots = slotsOf(old, worker('other'), replacement);
  t.deepEqual(names(slots.retirable(2)), [], 'its replacement is not ready yet');
  replacement.process.ready = true;
  t.deepEqual(names(slots.retirable(2)), ['old']);
  old.current = 'card';
  t.deepEqual(names(slots.retirable(2)), [], 'drawing: it goes after its card');
});

test('retirable is lazy: a worker retired by the caller is no longer ready when the next is checked', (t) => {
  const first = { ...worker('first'), retiring: true };
  const second = { ...worker('second'), retiring: true };
  const slots = slotsOf(first, second, worker('a'), worker('b'));
  const retired: string[] = [];
  for (const slot of slots.retirable(3)) {
    slot.process.ready = false;
    retired.push(slot.process.name);
  }
  t.deepEqual(retired, ['first'], 'four ready for a size of three: one may go, not two');
});

test("under a pool budget a worker's ceiling is what the others leave, at most its own limit", (t) => {
  const a = worker('a', { rssBytes: 300 });
  const b = worker('b', { rssBytes: 200 });
  const fresh = worker('fresh');
  const slots = slotsOf(a, b, fresh);
  t.is(slots.memoryCeiling(a, 1000, 1000), 1000 - 200);
  t.is(slots.memoryCeiling(fresh, 1000, 1000), 1000 - 500);
  t.is(slots.memoryCeiling(fresh, 400, 1000), 400, 'its own limit is lower');
});

test('failed starts are retried after a doubling pause, capped', (t) => {
  t.deepEqual([0, 1, 2, 3, 4].map(startRetryDelayMs), [0, 100, 200, 400, 800]);
  t.is(startRetryDelayMs(30), START_RETRY_MAX_MS);
});
