import test from 'ava';
import { compactNumber } from '@utility-api/compact-number';
import { analyzeNumber, numberAnalyzerEndpoint, type NumberAnalysis } from '../../../../services/gateway/src/utilities/number-analyzer/endpoint.ts';

// --- Independent reference implementations, deliberately naive. ---------------------------------

function referenceIsPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  // Plain trial division by odd numbers; exact for every safe integer (all values stay below 2^53).
  for (let divisor = 3; divisor * divisor <= n; divisor += 2) if (n % divisor === 0) return false;
  return true;
}

const FIBONACCI = (() => {
  const numbers = new Set<bigint>([0n]);
  for (let [a, b] = [0n, 1n]; b <= 2n ** 53n; [a, b] = [b, a + b]) numbers.add(b);
  return numbers;
})();

function referenceIsFibonacci(n: number): boolean {
  return FIBONACCI.has(BigInt(n));
}

function referenceIsPerfectSquare(n: number): boolean {
  if (n < 0) return false;
  for (let root = 0; root * root <= n; root += 1) if (root * root === n) return true;
  return false;
}

function referenceIsArmstrong(n: number): boolean {
  if (n < 0) return false;
  const digits: number[] = [];
  for (let rest = n; ; rest = Math.floor(rest / 10)) {
    digits.push(rest % 10);
    if (rest < 10) break;
  }
  return digits.reduce((sum, digit) => sum + digit ** digits.length, 0) === n;
}

function referenceIsPalindrome(n: number): boolean {
  if (n < 0) return false;
  let reversed = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 10)) reversed = reversed * 10 + (rest % 10);
  return reversed === n;
}

const commaGrouping = new Intl.NumberFormat('en-US', { useGrouping: true, maximumFractionDigits: 0 });

/** The reference for each field, so a test about one flag computes only that flag's reference. */
const REFERENCE: { [Field in keyof NumberAnalysis]: (n: number) => NumberAnalysis[Field] } = {
  formatted1: (n) => commaGrouping.format(n),
  formatted2: (n) => commaGrouping.format(n).replaceAll(',', '.'),
  abbreviated: (n) => compactNumber(n),
  integer: (n) => n,
  isEven: (n) => Math.abs(n) % 2 === 0,
  isOdd: (n) => Math.abs(n) % 2 === 1,
  isPrime: referenceIsPrime,
  isFibonacci: referenceIsFibonacci,
  isPerfectSquare: referenceIsPerfectSquare,
  isArmstrong: referenceIsArmstrong,
  isPalindrome: referenceIsPalindrome,
  isDivisibleBy3: (n) => Math.abs(n) % 3 === 0,
  numberType: () => 'integer',
  isGreaterThanZero: (n) => n > 0,
  isNegative: (n) => n < 0,
  absoluteValue: (n) => Math.abs(n),
};

const FIELDS = Object.keys(REFERENCE) as (keyof NumberAnalysis)[];

/** Compares analyses with the reference and lists only the differences, so one assertion covers many numbers. */
function mismatches(values: Iterable<number>, fields: readonly (keyof NumberAnalysis)[] = FIELDS) {
  const found: { value: number; field: string; actual: unknown; expected: unknown }[] = [];
  for (const value of values) {
    const analysis = analyzeNumber(value);
    // Exactly the documented fields, in the documented order.
    if (Object.keys(analysis).join() !== FIELDS.join()) found.push({ value, field: '(fields)', actual: Object.keys(analysis), expected: FIELDS });
    for (const field of fields) {
      const expected = REFERENCE[field](value);
      if (analysis[field] !== expected) found.push({ value, field, actual: analysis[field], expected });
    }
  }
  return found;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

// --- Whole analyses --------------------------------------------------------------------------

test('every field matches the reference for all integers from -20000 to 20000', (t) => {
  t.deepEqual(mismatches(range(-20_000, 20_000)), []);
});

test('every field matches the reference around the trial-division / Miller-Rabin boundary (10^6)', (t) => {
  t.deepEqual(mismatches(range(990_000, 1_010_000)), []);
});

test('isPrime matches trial division on a deterministic spread up to 10^12', (t) => {
  const values: number[] = [];
  let seed = 42;
  for (let index = 0; index < 3_000; index += 1) {
    seed = (seed * 48_271) % 2_147_483_647;
    values.push(1_000_000 + Math.floor((seed / 2_147_483_647) * 10 ** (6 + (index % 7))) * 2 + 1);
  }
  t.deepEqual(mismatches(values, ['isPrime']), []);
  t.true(values.filter((value) => analyzeNumber(value).isPrime).length > 50, 'the sample holds primes, not only composites');
});

// --- Primality -------------------------------------------------------------------------------

test('numbers below 2 are not prime; 2 and 3 are', (t) => {
  for (const value of [-9_007_199_254_740_991, -7, -2, -1, 0, 1]) t.false(analyzeNumber(value).isPrime, String(value));
  t.true(analyzeNumber(2).isPrime);
  t.true(analyzeNumber(3).isPrime);
});

test('primes and composites just below 2^53 match trial division', (t) => {
  t.true(analyzeNumber(9_007_199_254_740_881).isPrime);
  t.false(analyzeNumber(9_007_199_254_740_991).isPrime);
  t.is(6361 * 69_431 * 20_394_401, 9_007_199_254_740_991);
  t.deepEqual(mismatches(range(Number.MAX_SAFE_INTEGER - 120, Number.MAX_SAFE_INTEGER), ['isPrime']), []);
});

test('Carmichael numbers are not prime', (t) => {
  for (const value of [561, 1105, 1729, 41_041, 825_265, 321_197_185, 5_394_826_801, 232_250_619_601, 9_746_347_772_161]) {
    t.false(analyzeNumber(value).isPrime, String(value));
    t.false(referenceIsPrime(value), `reference agrees on ${value}`);
  }
});

test('strong pseudoprimes to several small bases are not prime', (t) => {
  // Each fools Miller-Rabin with the first k prime bases: 2047 (2), 1373653 (2,3), 25326001 (2,3,5),
  // 3215031751 (2..7), 2152302898747 (2..11), 3474749660383 (2..13), 341550071728321 (2..17).
  for (const value of [2_047, 1_373_653, 25_326_001, 3_215_031_751, 2_152_302_898_747, 3_474_749_660_383, 341_550_071_728_321]) {
    t.false(analyzeNumber(value).isPrime, String(value));
    t.false(referenceIsPrime(value), `reference agrees on ${value}`);
  }
});

test('products of two large primes and squares of primes are not prime', (t) => {
  // 94906249 and 94906247 are the two largest primes whose squares and products stay below 2^53.
  for (const prime of [94_906_249, 94_906_247, 65_521, 65_537, 2_097_143]) {
    t.true(referenceIsPrime(prime), String(prime));
    t.true(analyzeNumber(prime).isPrime, String(prime));
  }
  for (const value of [94_906_249 * 94_906_247, 94_906_249 * 94_906_249, 94_906_247 * 94_906_247, 65_521 * 65_537 * 2_097_143]) {
    t.true(Number.isSafeInteger(value), String(value));
    t.false(analyzeNumber(value).isPrime, String(value));
  }
});

test('large known primes are prime', (t) => {
  for (const value of [1_000_003, 2_147_483_647, 999_999_999_989, 4_398_046_511_093, 1_125_899_906_842_597]) {
    t.true(analyzeNumber(value).isPrime, String(value));
    t.true(referenceIsPrime(value), `reference agrees on ${value}`);
  }
});

// --- Fibonacci, squares, Armstrong, palindromes ---------------------------------------------

test('every Fibonacci number up to 2^53 is recognized, and its neighbours are not', (t) => {
  const fibonacci = [...FIBONACCI].map(Number).filter((value) => Number.isSafeInteger(value));
  t.is(fibonacci.at(-1), 8_944_394_323_791_464);
  for (const value of fibonacci) t.true(analyzeNumber(value).isFibonacci, String(value));
  const neighbours = fibonacci.flatMap((value) => [value - 1, value + 1]).filter((value) => value > 5 && Number.isSafeInteger(value));
  for (const value of neighbours) t.false(analyzeNumber(value).isFibonacci, String(value));
  t.false(analyzeNumber(Number.MAX_SAFE_INTEGER).isFibonacci);
});

test('perfect squares stay exact up to the largest square below 2^53', (t) => {
  const root = 94_906_265;
  t.true(analyzeNumber(root * root).isPerfectSquare);
  t.false(analyzeNumber(root * root - 1).isPerfectSquare);
  t.false(analyzeNumber(root * root + 1).isPerfectSquare);
  t.false(analyzeNumber(Number.MAX_SAFE_INTEGER).isPerfectSquare);
  t.false(analyzeNumber(2 ** 52 + 1).isPerfectSquare);
  t.true(analyzeNumber(2 ** 52).isPerfectSquare);
  for (const base of [10_000_000, 67_108_863, 94_906_264]) {
    t.true(analyzeNumber(base * base).isPerfectSquare, `${base}^2`);
    t.false(analyzeNumber(base * base + base).isPerfectSquare, `${base}^2 + ${base}`);
    t.false(analyzeNumber(base * base - 1).isPerfectSquare, `${base}^2 - 1`);
  }
});

test('every Armstrong number up to 2^53 is recognized', (t) => {
  const armstrong = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 153, 370, 371, 407, 1_634, 8_208, 9_474, 54_748, 92_727, 93_084, 548_834, 1_741_725,
    4_210_818, 9_800_817, 9_926_315, 24_678_050, 24_678_051, 88_593_477, 146_511_208, 472_335_975, 534_494_836, 912_985_153,
    4_679_307_774, 32_164_049_650, 32_164_049_651, 40_028_394_225, 42_678_290_603, 44_708_635_679, 49_388_550_606,
    82_693_916_578, 94_204_591_914, 28_116_440_335_967, 4_338_281_769_391_370, 4_338_281_769_391_371,
  ];
  for (const value of armstrong) {
    t.true(analyzeNumber(value).isArmstrong, String(value));
    t.true(referenceIsArmstrong(value), `reference agrees on ${value}`);
  }
  const armstrongSet = new Set(armstrong);
  const others = armstrong.flatMap((value) => [value - 1, value + 1, value * 10]).filter((value) => value > 0 && !armstrongSet.has(value));
  for (const value of others) t.false(analyzeNumber(value).isArmstrong, String(value));
  t.false(analyzeNumber(10).isArmstrong);
  t.false(analyzeNumber(Number.MAX_SAFE_INTEGER).isArmstrong);
});

test('palindromes read the decimal digits, up to 16 digits', (t) => {
  for (const value of [0, 7, 11, 121, 12_321, 1_234_567_887_654_321, 9_007_199_229_917_009]) {
    t.true(analyzeNumber(value).isPalindrome, String(value));
  }
  for (const value of [10, 100, 123, 1_234_567_887_654_320, Number.MAX_SAFE_INTEGER]) {
    t.false(analyzeNumber(value).isPalindrome, String(value));
  }
});

// --- Signs -----------------------------------------------------------------------------------

test('negative numbers are never prime, Fibonacci, squares, Armstrong or palindromes', (t) => {
  for (const value of [-1, -2, -3, -4, -5, -7, -8, -9, -11, -121, -153, -1_597, -9_007_199_254_740_881]) {
    const analysis = analyzeNumber(value);
    t.false(analysis.isPrime, `${value} prime`);
    t.false(analysis.isFibonacci, `${value} fibonacci`);
    t.false(analysis.isPerfectSquare, `${value} square`);
    t.false(analysis.isArmstrong, `${value} armstrong`);
    t.false(analysis.isPalindrome, `${value} palindrome`);
    t.true(analysis.isNegative);
    t.false(analysis.isGreaterThanZero);
    t.is(analysis.absoluteValue, -value);
  }
});

test('negative numbers keep parity and divisibility by 3', (t) => {
  t.like(analyzeNumber(-3), { isEven: false, isOdd: true, isDivisibleBy3: true });
  t.like(analyzeNumber(-4), { isEven: true, isOdd: false, isDivisibleBy3: false });
  t.like(analyzeNumber(-9_007_199_254_740_991), { isEven: false, isOdd: true, isDivisibleBy3: false, absoluteValue: 9_007_199_254_740_991 });
  t.like(analyzeNumber(-9_007_199_254_740_990), { isEven: true, isOdd: false, isDivisibleBy3: true });
});

test('0 is even, divisible by 3, Fibonacci, a square, Armstrong and a palindrome, but neither positive nor negative', (t) => {
  t.deepEqual(analyzeNumber(0), {
    formatted1: '0',
    formatted2: '0',
    abbreviated: '0',
    integer: 0,
    isEven: true,
    isOdd: false,
    isPrime: false,
    isFibonacci: true,
    isPerfectSquare: true,
    isArmstrong: true,
    isPalindrome: true,
    isDivisibleBy3: true,
    numberType: 'integer',
    isGreaterThanZero: false,
    isNegative: false,
    absoluteValue: 0,
  });
});

test('1 is odd, not prime, Fibonacci, a square, Armstrong and a palindrome', (t) => {
  t.like(analyzeNumber(1), {
    isEven: false,
    isOdd: true,
    isPrime: false,
    isFibonacci: true,
    isPerfectSquare: true,
    isArmstrong: true,
    isPalindrome: true,
    isDivisibleBy3: false,
    isGreaterThanZero: true,
  });
});

test('-0 is reported as 0 in every field', (t) => {
  const analysis = analyzeNumber(-0);
  t.true(Object.is(analysis.integer, 0));
  t.true(Object.is(analysis.absoluteValue, 0));
  t.deepEqual(analysis, analyzeNumber(0));
  t.false(JSON.stringify(analysis).includes('-'));
});

// --- Formatting ------------------------------------------------------------------------------

test('formatted1 and formatted2 group thousands with commas and periods, negatives included', (t) => {
  const cases: [number, string][] = [
    [0, '0'],
    [999, '999'],
    [1_000, '1,000'],
    [-1_000, '-1,000'],
    [12_345, '12,345'],
    [123_456, '123,456'],
    [-123_456, '-123,456'],
    [1_234_567, '1,234,567'],
    [-1_234_567, '-1,234,567'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
    [-Number.MAX_SAFE_INTEGER, '-9,007,199,254,740,991'],
  ];
  for (const [value, withCommas] of cases) {
    t.is(analyzeNumber(value).formatted1, withCommas, String(value));
    t.is(analyzeNumber(value).formatted2, withCommas.replaceAll(',', '.'), String(value));
  }
  const powers = range(0, 15).flatMap((exponent) => [10 ** exponent, 10 ** exponent - 1, -(10 ** exponent)]);
  t.deepEqual(mismatches(powers, ['formatted1', 'formatted2']), []);
});

test('abbreviated uses the shared compact number text', (t) => {
  t.is(analyzeNumber(1_234_567).abbreviated, '1.2M');
  t.is(analyzeNumber(-1_250).abbreviated, '-1.3K');
  t.is(analyzeNumber(999_950).abbreviated, '1M');
  t.is(analyzeNumber(999).abbreviated, '999');
  t.is(analyzeNumber(Number.MAX_SAFE_INTEGER).abbreviated, '9Qa');
  t.is(analyzeNumber(-Number.MAX_SAFE_INTEGER).abbreviated, '-9Qa');
});

test('abbreviated rounds half up into Qa past T, never writing 1000T', (t) => {
  t.is(analyzeNumber(999_949_999_999_999).abbreviated, '999.9T');
  t.is(analyzeNumber(999_950_000_000_000).abbreviated, '1Qa');
  t.is(analyzeNumber(1_000_000_000_000_000).abbreviated, '1Qa');
  t.is(analyzeNumber(1_250_000_000_000_000).abbreviated, '1.3Qa');
  t.is(analyzeNumber(-1_249_999_999_999_999).abbreviated, '-1.2Qa');
});

test('the documentation of abbreviated lists every suffix and the rounding', (t) => {
  const description = numberAnalyzerEndpoint().description;
  for (const suffix of ['K', 'M', 'B', 'T', 'Qa', 'Qi', 'Sx', 'Sp', 'Oc', 'No', 'Dc']) t.regex(description, new RegExp(`\\b${suffix} \\(10\\^\\d+\\)`), suffix);
  t.regex(description, /rounded half away from zero/);
});

test('numberType is always integer', (t) => {
  for (const value of [0, 1, -1, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER]) t.is(analyzeNumber(value).numberType, 'integer');
});

// --- Query parsing (the schema the route validates with) ----------------------------------------

const querySchema = numberAnalyzerEndpoint().query;

function parseInteger(text: string): number | undefined {
  const parsed = querySchema?.safeParse({ integer: text });
  return parsed?.success ? (parsed.data as { integer: number }).integer : undefined;
}

test('the query accepts plain digits with an optional sign and leading zeros', (t) => {
  t.is(parseInteger('1234567'), 1_234_567);
  t.is(parseInteger('-42'), -42);
  t.is(parseInteger('+7'), 7);
  t.is(parseInteger('007'), 7);
  t.is(parseInteger('-007'), -7);
  t.is(parseInteger('0'), 0);
  t.is(parseInteger('00000000000000000000000042'), 42);
  t.is(parseInteger('9007199254740991'), Number.MAX_SAFE_INTEGER);
  t.is(parseInteger('-9007199254740991'), -Number.MAX_SAFE_INTEGER);
  t.is(parseInteger('00009007199254740991'), Number.MAX_SAFE_INTEGER);
});

test('the query refuses decimals, exponents, hex, spaces, text and unsafe integers', (t) => {
  for (const text of ['', ' ', '1.5', '1.0', '1e3', '0x10', ' 12', '12 ', 'abc', '12abc', '--1', '+-1', '+', '-', '١٢', '9007199254740992', '-9007199254740992', '9007199254740993', '99999999999999999999', '1'.repeat(400)]) {
    t.is(parseInteger(text), undefined, JSON.stringify(text));
  }
});

test('the query explains a missing or malformed integer', (t) => {
  const missing = querySchema?.safeParse({});
  t.false(missing?.success);
  t.is(missing?.error?.issues[0]?.message, 'is required');
  const decimal = querySchema?.safeParse({ integer: '1.5' });
  t.is(decimal?.error?.issues[0]?.message, 'must be a whole number from -9007199254740991 to 9007199254740991, written in digits');
  const tooBig = querySchema?.safeParse({ integer: '9007199254740992' });
  t.is(tooBig?.error?.issues[0]?.message, 'must be a whole number from -9007199254740991 to 9007199254740991');
});
