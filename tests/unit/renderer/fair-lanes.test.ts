import test from 'ava';
import { FairLanes, type LaneCard } from '../../../packages/render-engine/src/card-pool/fair-lanes.ts';

let nextId = 1;
const card = (tenant: string, animated = false): LaneCard => ({ tenant, id: nextId++, animated });
const lanes = (limits: Partial<{ animatedAtOnce: number; animatedPerTenant: number }> = {}) =>
  new FairLanes<LaneCard>({ animatedAtOnce: Number.POSITIVE_INFINITY, animatedPerTenant: Number.POSITIVE_INFINITY, ...limits });
const takeAll = (from: FairLanes<LaneCard>) => {
  const taken: LaneCard[] = [];
  for (let next = from.takeNext(); next; next = from.takeNext()) taken.push(next);
  return taken;
};

test('one tenant is served first in first out', (t) => {
  const from = lanes();
  const cards = [card('a'), card('a'), card('a')];
  for (const each of cards) from.enqueue(each);
  t.is(from.waiting, 3);
  t.deepEqual(takeAll(from), cards);
  t.is(from.waiting, 0);
  t.is(from.drawingFor('a'), 3);
});

test('tenants waiting together are served round robin, the one drawing fewest first', (t) => {
  const from = lanes();
  const [a1, a2, a3, b1, c1] = [card('a'), card('a'), card('a'), card('b'), card('c')];
  for (const each of [a1, a2, a3, b1, c1]) from.enqueue(each);
  t.deepEqual(takeAll(from), [a1, b1, c1, a2, a3]);
});

test('a tenant drawing more waits behind one drawing less, whatever came first', (t) => {
  const from = lanes();
  const a1 = card('a');
  from.enqueue(a1);
  t.is(from.takeNext(), a1);
  const [a2, b1] = [card('a'), card('b')];
  from.enqueue(a2);
  from.enqueue(b1);
  t.is(from.takeNext(), b1, "a is drawing one, b none: b's card goes first though a's came first");
  from.finished(a1);
  t.is(from.drawingFor('a'), 0);
  t.is(from.takeNext(), a2);
});

test('among tenants drawing as many, the one served longest ago goes first; a newcomer before both', (t) => {
  const from = lanes();
  const [a1, b1] = [card('a'), card('b')];
  from.enqueue(a1);
  from.enqueue(b1);
  t.deepEqual(takeAll(from), [a1, b1]);
  from.finished(a1);
  from.finished(b1);
  // Both are forgotten once idle: they come back as newcomers, served by card age.
  const [b2, a2] = [card('b'), card('a')];
  from.enqueue(b2);
  from.enqueue(a2);
  t.deepEqual(takeAll(from), [b2, a2]);
  // b was served before a and both draw one: the next b card goes after the next a card... unless a newcomer waits.
  const [b3, a3, c1] = [card('b'), card('a'), card('c')];
  for (const each of [b3, a3, c1]) from.enqueue(each);
  t.deepEqual(takeAll(from), [c1, b3, a3]);
});

test('animated cards wait over the pool limit and over their tenant limit; still cards go on', (t) => {
  const from = lanes({ animatedAtOnce: 2, animatedPerTenant: 1 });
  const [a1, a2, aStill, b1, c1] = [card('a', true), card('a', true), card('a'), card('b', true), card('c', true)];
  for (const each of [a1, a2, aStill]) from.enqueue(each);
  t.is(from.takeNext(), a1);
  t.is(from.takeNext(), undefined, "a's next card is animated and a draws its one");
  from.enqueue(b1);
  from.enqueue(c1);
  t.is(from.takeNext(), b1);
  t.is(from.takeNext(), undefined, 'two animated cards draw: c waits too');
  from.finished(a1);
  t.is(from.takeNext(), c1, 'one animated card fewer: c, never served, before a');
  t.is(from.takeNext(), undefined);
  from.finished(b1);
  t.is(from.takeNext(), a2);
  t.is(from.takeNext(), aStill, "a still card behind a's animated one draws beside it");
});

test('a withdrawn card leaves its lane once; drain empties every lane', (t) => {
  const from = lanes();
  const [a1, a2, b1] = [card('a'), card('a'), card('b')];
  for (const each of [a1, a2, b1]) from.enqueue(each);
  t.true(from.withdraw(a1));
  t.false(from.withdraw(a1));
  t.deepEqual(from.waitingByTenant, { a: 1, b: 1 });
  t.is(from.takeNext(), a2);
  t.false(from.withdraw(a2), 'a card already taken is not waiting');
  t.deepEqual(from.drain(), [b1]);
  t.is(from.waiting, 0);
  t.deepEqual(from.waitingByTenant, {});
  t.is(from.takeNext(), undefined);
});
