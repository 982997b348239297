import test from 'ava';
import { flipCoin, resolveCoinOdds, type CoinOdds } from '../../../../services/gateway/src/utilities/coin-flip/endpoint.ts';
import { fixedClock } from '../../../../services/gateway/src/runtime/clock.ts';
import { seededRandomSource, type RandomSource } from '../../../../services/gateway/src/runtime/random-source.ts';

const clock = fixedClock(Date.UTC(2024, 0, 1));
const HEADS = 'Heads: The coin landed on the head side.';
const TAILS = 'Tails: The coin landed on the tails side.';
const LARGEST_FLOAT_BELOW_ONE = 1 - 2 ** -53;

/** A source whose float() is always `value`. */
function constant(value: number): RandomSource {
  return { float: () => value, integer: (maxExclusive) => Math.floor(value * maxExclusive) };
}

function odds(heads: number | undefined, tails: number | undefined): CoinOdds {
  const resolved = resolveCoinOdds(heads, tails);
  if (Array.isArray(resolved)) throw new Error(`unexpected problems: ${JSON.stringify(resolved)}`);
  return resolved;
}

function countHeads(coinOdds: CoinOdds, flips: number, seed: number): number {
  const random = seededRandomSource(seed);
  let heads = 0;
  for (let flip = 0; flip < flips; flip += 1) if (flipCoin(coinOdds, random, clock).result === 'Heads') heads += 1;
  return heads;
}

test('a fair flip without odds: literal texts, 50% each, Simulated Randomly', (t) => {
  const fair = odds(undefined, undefined);
  t.deepEqual(fair, { heads: 50, custom: false });
  t.deepEqual(flipCoin(fair, constant(0), clock), {
    result: 'Heads',
    description: HEADS,
    flipCount: 1,
    timestamp: '2024-01-01T00:00:00.000Z',
    probability: { heads: '50%', tails: '50%' },
    flipMethod: 'Simulated Randomly',
    isValid: true,
  });
  t.deepEqual(flipCoin(fair, constant(0.75), clock), {
    result: 'Tails',
    description: TAILS,
    flipCount: 1,
    timestamp: '2024-01-01T00:00:00.000Z',
    probability: { heads: '50%', tails: '50%' },
    flipMethod: 'Simulated Randomly',
    isValid: true,
  });
});

test('the draw is Heads exactly when it falls below the heads share', (t) => {
  const fair = odds(undefined, undefined);
  t.is(flipCoin(fair, constant(0.4999999), clock).result, 'Heads');
  t.is(flipCoin(fair, constant(0.5), clock).result, 'Tails');
  t.is(flipCoin(fair, constant(LARGEST_FLOAT_BELOW_ONE), clock).result, 'Tails');
  t.is(flipCoin(odds(30, undefined), constant(0.2999), clock).result, 'Heads');
  t.is(flipCoin(odds(30, undefined), constant(0.3), clock).result, 'Tails');
});

test('one given share implies the other', (t) => {
  t.deepEqual(odds(70, undefined), { heads: 70, custom: true });
  t.deepEqual(odds(undefined, 30), { heads: 70, custom: true });
  t.deepEqual(odds(undefined, 100), { heads: 0, custom: true });
  t.deepEqual(odds(0, undefined), { heads: 0, custom: true });
});

test('both shares must add up to 100; decimals are fine', (t) => {
  t.deepEqual(odds(30, 70), { heads: 30, custom: true });
  t.deepEqual(odds(1, 99), { heads: 1, custom: true });
  t.deepEqual(odds(50, 50), { heads: 50, custom: true });
  t.deepEqual(odds(33.3, 66.7), { heads: 33.3, custom: true });
  t.deepEqual(odds(0.1, 99.9), { heads: 0.1, custom: true });
  t.deepEqual(odds(100, 0), { heads: 100, custom: true });
});

test('shares that do not add up to 100 are a problem with heads', (t) => {
  for (const [heads, tails] of [
    [60, 60],
    [10, 10],
    [0, 0],
    [50, 50.001],
    [100, 100],
  ] as const) {
    const resolved = resolveCoinOdds(heads, tails);
    t.true(Array.isArray(resolved), `${heads}/${tails}`);
    if (!Array.isArray(resolved)) continue;
    t.is(resolved.length, 1);
    t.like(resolved[0], { in: 'query', field: 'heads' });
    t.regex(resolved[0]?.message ?? '', /add up to 100/);
  }
});

test('custom odds, even 50/50, report Custom Probability and the odds used', (t) => {
  const random = seededRandomSource(1);
  t.like(flipCoin(odds(50, 50), random, clock), { flipMethod: 'Custom Probability', probability: { heads: '50%', tails: '50%' } });
  t.like(flipCoin(odds(1, 99), random, clock), { flipMethod: 'Custom Probability', probability: { heads: '1%', tails: '99%' } });
  t.like(flipCoin(odds(undefined, 25), random, clock), { probability: { heads: '75%', tails: '25%' } });
  t.like(flipCoin(odds(12.5, undefined), random, clock), { probability: { heads: '12.5%', tails: '87.5%' } });
  t.like(flipCoin(odds(33.3, 66.7), random, clock), { probability: { heads: '33.3%', tails: '66.7%' } });
  t.like(flipCoin(odds(100 / 3, undefined), random, clock), { probability: { heads: '33.33%', tails: '66.67%' } });
});

test('heads=0 never lands Heads and heads=100 always does', (t) => {
  t.is(flipCoin(odds(0, undefined), constant(0), clock).result, 'Tails');
  t.is(flipCoin(odds(100, undefined), constant(LARGEST_FLOAT_BELOW_ONE), clock).result, 'Heads');
  t.is(countHeads(odds(0, undefined), 10_000, 11), 0);
  t.is(countHeads(odds(undefined, 100), 10_000, 12), 0);
  t.is(countHeads(odds(100, undefined), 10_000, 13), 10_000);
  t.is(countHeads(odds(100, 0), 10_000, 14), 10_000);
});

test('each flip reports the description of its own side', (t) => {
  const random = seededRandomSource(3);
  const seen = new Set<string>();
  for (let flip = 0; flip < 200; flip += 1) {
    const result = flipCoin(odds(undefined, undefined), random, clock);
    t.is(result.description, result.result === 'Heads' ? HEADS : TAILS);
    seen.add(result.result);
  }
  t.deepEqual([...seen].sort(), ['Heads', 'Tails']);
});

test('heads=30 lands Heads about 30% of the time (seeded, within 5 standard deviations)', (t) => {
  const flips = 100_000;
  const heads = countHeads(odds(30, undefined), flips, 20240615);
  const sd = Math.sqrt(flips * 0.3 * 0.7); // about 145
  t.true(Math.abs(heads - flips * 0.3) < 5 * sd, `${heads} heads in ${flips}`);
});

test('a fair coin lands Heads about half the time (seeded, within 5 standard deviations)', (t) => {
  const flips = 100_000;
  const heads = countHeads(odds(undefined, undefined), flips, 424242);
  const sd = Math.sqrt(flips * 0.25); // about 158
  t.true(Math.abs(heads - flips / 2) < 5 * sd, `${heads} heads in ${flips}`);
});

test('tails=99 lands Heads about 1% of the time (seeded, within 5 standard deviations)', (t) => {
  const flips = 100_000;
  const heads = countHeads(odds(1, 99), flips, 7);
  const sd = Math.sqrt(flips * 0.01 * 0.99); // about 31
  t.true(Math.abs(heads - flips * 0.01) < 5 * sd, `${heads} heads in ${flips}`);
});
