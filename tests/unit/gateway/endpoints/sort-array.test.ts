import test from 'ava';
import { sortArray } from '../../../../services/gateway/src/utilities/sort-array/endpoint.ts';
import { fixedClock } from '../../../../services/gateway/src/runtime/clock.ts';
import { seededRandomSource } from '../../../../services/gateway/src/runtime/random-source.ts';

const clock = fixedClock(Date.UTC(2024, 0, 1));

test('high sorts descending with the literal texts', (t) => {
  t.deepEqual(sortArray([5, 3, 9, 1], 'high', clock), {
    result: [9, 5, 3, 1],
    description: 'Array sorted in descending order.',
    originalArray: [5, 3, 9, 1],
    timestamp: '2024-01-01T00:00:00.000Z',
    isValid: true,
    sortMethod: 'High to Low',
  });
});

test('numbers sort by value, not as text', (t) => {
  t.deepEqual(sortArray([10, 9, 100, 1, 2], 'low', clock).result, [1, 2, 9, 10, 100]);
  t.deepEqual(sortArray([-10, -9, -100, 0], 'low', clock).result, [-100, -10, -9, 0]);
});

test('decimals, negatives, duplicates and extremes', (t) => {
  const input = [2.5, -1, 0, -3.75, 2.5, 1e-7, -1e21, 1e21, Number.MAX_VALUE, -Number.MAX_VALUE, 0.1 + 0.2, 0.3];
  const ascending = [-Number.MAX_VALUE, -1e21, -3.75, -1, 0, 1e-7, 0.3, 0.1 + 0.2, 2.5, 2.5, 1e21, Number.MAX_VALUE];
  t.deepEqual(sortArray(input, 'low', clock).result, ascending);
  t.deepEqual(sortArray(input, 'high', clock).result, [...ascending].reverse());
});

test('the original array is left untouched and echoed as given', (t) => {
  const input = [3, 1, 2];
  const frozen = Object.freeze([...input]);
  const result = sortArray(frozen, 'high', clock);
  t.deepEqual(input, [3, 1, 2]);
  t.deepEqual(frozen, [3, 1, 2]);
  t.deepEqual(result.originalArray, [3, 1, 2]);
  t.not(result.originalArray, frozen);
  t.not(result.result, result.originalArray);
});

test('empty and single-element arrays', (t) => {
  t.deepEqual(sortArray([], 'low', clock).result, []);
  t.deepEqual(sortArray([], 'high', clock).originalArray, []);
  t.deepEqual(sortArray([42], 'high', clock).result, [42]);
});

test('0 and -0 compare equal and keep their input order in both directions', (t) => {
  for (const direction of ['low', 'high'] as const) {
    const first = sortArray([0, -0], direction, clock).result;
    t.true(Object.is(first[0], 0) && Object.is(first[1], -0), `${direction}: ${first.map((value) => Object.is(value, -0) ? '-0' : '0').join(',')}`);
    const second = sortArray([-0, 0], direction, clock).result;
    t.true(Object.is(second[0], -0) && Object.is(second[1], 0), direction);
  }
  const mixed = sortArray([1, -0, 0, -1], 'high', clock).result;
  t.deepEqual(mixed.map((value) => (Object.is(value, -0) ? '-0' : String(value))), ['1', '-0', '0', '-1']);
});

test('random arrays come out ordered and as a permutation of the input', (t) => {
  const random = seededRandomSource(31);
  for (let round = 0; round < 200; round += 1) {
    const input = Array.from({ length: random.integer(50) }, () => (random.float() - 0.5) * 10 ** random.integer(12));
    const low = sortArray(input, 'low', clock).result;
    const high = sortArray(input, 'high', clock).result;
    for (let index = 1; index < input.length; index += 1) {
      if ((low[index - 1] as number) > (low[index] as number)) t.fail(`low not ascending at ${index}`);
      if ((high[index - 1] as number) < (high[index] as number)) t.fail(`high not descending at ${index}`);
    }
    const canonical = [...input].sort((a, b) => a - b);
    t.deepEqual([...low], canonical);
    t.deepEqual([...high].reverse(), canonical);
  }
});
