import test from 'ava';
import { compactNumber } from '@utility-api/compact-number';

/**
 * Reference: exact decimal rounding (half-up, or truncation for `down`) on a number's shortest
 * decimal text, done on digit strings so it shares no arithmetic with the implementation. Suffix
 * choice: the largest unit the value reaches, promoted once more when the rounded value reads 1000
 * of that unit (Dc is never promoted).
 */
function referenceCompact(value: number, round: 'half-up' | 'down' = 'half-up'): string {
  const text = String(Math.abs(value));
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`reference cannot handle ${text}`);
  const [whole = '', fraction = ''] = text.split('.');
  const units: [string, number][] = [
    ['Dc', 33], ['No', 30], ['Oc', 27], ['Sp', 24], ['Sx', 21], ['Qi', 18], ['Qa', 15], ['T', 12], ['B', 9], ['M', 6], ['K', 3], ['', 0],
  ];
  const digitsBeforePoint = whole.replace(/^0+(?=\d)/, '').length;
  let unitIndex = units.findIndex(([, zeros]) => whole !== '0' && digitsBeforePoint > zeros);
  if (unitIndex === -1) unitIndex = units.length - 1;
  const roundAt = (zeros: number): string => {
    // Shift the decimal point left by `zeros` places, then keep one decimal, rounding half up.
    const all = whole.padStart(zeros + 1, '0') + fraction + '00';
    const pointAt = all.length - fraction.length - 2 - zeros;
    const kept = all.slice(0, pointAt + 1);
    let tenths = BigInt(kept);
    if (round === 'half-up' && Number(all[pointAt + 1]) >= 5) tenths += 1n;
    return tenths.toString();
  };
  let tenths = roundAt((units[unitIndex] as [string, number])[1]);
  if (BigInt(tenths) >= 10_000n && unitIndex > 0) {
    unitIndex -= 1;
    tenths = roundAt((units[unitIndex] as [string, number])[1]);
  }
  if (BigInt(tenths) === 0n) return '0';
  const wholePart = tenths.length > 1 ? tenths.slice(0, -1).replace(/^0+(?=\d)/, '') : '0';
  const lastDigit = tenths.slice(-1);
  const body = lastDigit === '0' ? wholePart : `${wholePart}.${lastDigit}`;
  return `${value < 0 ? '-' : ''}${body}${(units[unitIndex] as [string, number])[0]}`;
}

const EXAMPLES: [number, string][] = [
  [0, '0'],
  [7, '7'],
  [999, '999'],
  [1_000, '1K'],
  [1_001, '1K'],
  [1_049, '1K'],
  [1_050, '1.1K'],
  [1_150, '1.2K'],
  [1_249, '1.2K'],
  [1_250, '1.3K'],
  [1_999, '2K'],
  [12_345, '12.3K'],
  [999_949, '999.9K'],
  [999_950, '1M'],
  [999_999, '1M'],
  [1_000_000, '1M'],
  [1_500_000, '1.5M'],
  [2_675_000, '2.7M'],
  [2_649_999, '2.6M'],
  [999_949_999, '999.9M'],
  [999_950_000, '1B'],
  [1_000_000_000, '1B'],
  [1_234_567_890, '1.2B'],
  [1_250_000_000, '1.3B'],
  [999_949_999_999, '999.9B'],
  [999_950_000_000, '1T'],
  [1_000_000_000_000, '1T'],
  [4_350_000_000_000, '4.4T'],
  [999_949_999_999_999, '999.9T'],
  [999_950_000_000_000, '1Qa'],
  [999_999_999_999_999, '1Qa'],
  [1_000_000_000_000_000, '1Qa'],
  [Number.MAX_SAFE_INTEGER, '9Qa'],
];

test('abbreviates the documented examples', (t) => {
  for (const [value, expected] of EXAMPLES) t.is(compactNumber(value), expected, String(value));
});

test('negative numbers mirror positive ones', (t) => {
  for (const [value, expected] of EXAMPLES) {
    if (value === 0) continue;
    t.is(compactNumber(-value), `-${expected}`, String(-value));
  }
  t.is(compactNumber(-1_250), '-1.3K');
  t.is(compactNumber(-1_249), '-1.2K');
  t.is(compactNumber(-999_950), '-1M');
  t.is(compactNumber(-Number.MAX_SAFE_INTEGER), '-9Qa');
});

test('rounds exact halves away from zero, also where doubles would misround', (t) => {
  // 1.05, 1.15 and 2.675 have no exact double; scaling by 10 in floating point rounds some of them down.
  t.is(compactNumber(1_050), '1.1K');
  t.is(compactNumber(1_150), '1.2K');
  t.is(compactNumber(1_450), '1.5K');
  t.is(compactNumber(2_675_000), '2.7M');
  t.is(compactNumber(-2_675_000), '-2.7M');
  t.is(compactNumber(1_005_000_000), '1B');
  t.is(compactNumber(8_150_000_000_000), '8.2T');
  // Halves just below 2^53, where value * 10 is no longer exact as a double.
  t.is(compactNumber(8_950_000_000_000_000 - 1), '8.9Qa');
  t.is(compactNumber(8_950_000_000_000_000), '9Qa');
  t.is(compactNumber(1_250_000_000_000_000), '1.3Qa');
});

test('every half boundary from 1K to 1M rounds up and the value below it rounds down', (t) => {
  for (let hundreds = 10; hundreds < 10_000; hundreds += 1) {
    const half = hundreds * 100 + 50;
    t.is(compactNumber(half), referenceCompact(half), String(half));
    t.is(compactNumber(half - 1), referenceCompact(half - 1), String(half - 1));
  }
});

test('agrees with a digit-string reference on integers of every size', (t) => {
  const values: number[] = [];
  for (let value = 0; value <= 20_000; value += 1) values.push(value);
  for (let exponent = 3; exponent <= 15; exponent += 1) {
    const unit = 10 ** exponent;
    for (const factor of [1, 9.9995, 9.99949, 1.05, 2.45, 99.95, 999.95, 999.949]) {
      const around = Math.round(unit * factor);
      for (let delta = -2; delta <= 2; delta += 1) values.push(around + delta);
    }
  }
  // A deterministic spread over the whole safe range.
  let seed = 123_456_789;
  for (let index = 0; index < 5_000; index += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    values.push(Math.floor((seed / 2_147_483_648) * 10 ** (1 + (index % 16))));
  }
  for (const value of values) {
    if (!Number.isSafeInteger(value)) continue;
    t.is(compactNumber(value), referenceCompact(value), String(value));
    t.is(compactNumber(-value), referenceCompact(-value), String(-value));
  }
});

test('non-integers keep one decimal, rounded half away from zero', (t) => {
  t.is(compactNumber(12.34), '12.3');
  t.is(compactNumber(12.35), '12.4');
  t.is(compactNumber(-12.35), '-12.4');
  t.is(compactNumber(12.04), '12');
  t.is(compactNumber(0.05), '0.1');
  t.is(compactNumber(1.45), '1.5');
  t.is(compactNumber(0.5), '0.5');
  t.is(compactNumber(999.94), '999.9');
  t.is(compactNumber(999.95), '1K');
  t.is(compactNumber(-999.95), '-1K');
  t.is(compactNumber(1_249.99), '1.2K');
  t.is(compactNumber(1_250.01), '1.3K');
  t.is(compactNumber(999_949.99), '999.9K');
  t.is(compactNumber(999_950.5), '1M');
  for (let hundredths = 0; hundredths < 100_000; hundredths += 7) {
    const value = hundredths / 100;
    t.is(compactNumber(value), referenceCompact(value), String(value));
  }
});

test('tiny magnitudes and negative zero print as a plain 0, never -0', (t) => {
  t.is(compactNumber(-0), '0');
  t.is(compactNumber(0.04), '0');
  t.is(compactNumber(-0.04), '0');
  t.is(compactNumber(1e-7), '0');
  t.is(compactNumber(-1e-7), '0');
  t.is(compactNumber(Number.MIN_VALUE), '0');
});

test('past T come the game-style suffixes Qa, Qi, Sx, Sp, Oc, No and Dc, one every 10^3', (t) => {
  const suffixes = ['Qa', 'Qi', 'Sx', 'Sp', 'Oc', 'No', 'Dc'];
  for (const [step, suffix] of suffixes.entries()) {
    const exponent = 15 + step * 3;
    t.is(compactNumber(Number(`1e${exponent}`)), `1${suffix}`, `1e${exponent}`);
    t.is(compactNumber(Number(`2.5e${exponent + 1}`)), `25${suffix}`, `2.5e${exponent + 1}`);
    t.is(compactNumber(Number(`1.25e${exponent + 2}`)), `125${suffix}`, `1.25e${exponent + 2}`);
    t.is(compactNumber(-Number(`4.56e${exponent}`)), `-4.6${suffix}`, `-4.56e${exponent}`);
  }
  t.is(compactNumber(2 ** 53 + 2), '9Qa');
  t.is(compactNumber(9.9995e20), '1Sx');
  t.is(compactNumber(1.5e22), '15Sx');
  t.is(compactNumber(999.96e33 - 1e18), '1000Dc');
});

test('values past 1000Dc stay in Dc and are written in plain digits', (t) => {
  t.is(compactNumber(1e36), '1000Dc');
  t.is(compactNumber(-1e36), '-1000Dc');
  t.is(compactNumber(1.5e40), '15000000Dc');
  const huge = compactNumber(Number.MAX_VALUE);
  t.regex(huge, /^17976931348623157\d+Dc$/);
  t.notRegex(huge, /e/);
});

test('rounding down truncates toward zero, so a value never reads as one it has not reached', (t) => {
  const down = (value: number) => compactNumber(value, { round: 'down' });
  t.is(down(999_950), '999.9K');
  t.is(down(999_999), '999.9K');
  t.is(down(1_000_000), '1M');
  t.is(down(1_999), '1.9K');
  t.is(down(1_050), '1K');
  t.is(down(999), '999');
  t.is(down(999.99), '999.9');
  t.is(down(0.09), '0');
  t.is(down(-0.09), '0');
  t.is(down(-1_999), '-1.9K');
  t.is(down(999_999_999_999_999), '999.9T');
  t.is(down(1e15), '1Qa');
  t.is(down(Number.MAX_SAFE_INTEGER), '9Qa');
  t.is(down(1e36), '1000Dc');
  t.is(compactNumber(999_950, { round: 'half-up' }), compactNumber(999_950));
});

test('rounding down agrees with a digit-string reference on integers and decimals of every size', (t) => {
  const values: number[] = [];
  for (let value = 0; value <= 20_000; value += 1) values.push(value);
  for (let hundredths = 0; hundredths < 100_000; hundredths += 7) values.push(hundredths / 100);
  for (let exponent = 3; exponent <= 15; exponent += 1) {
    const unit = 10 ** exponent;
    for (const factor of [1, 9.9995, 9.99949, 1.05, 2.45, 99.95, 999.95, 999.949]) {
      const around = Math.round(unit * factor);
      for (let delta = -2; delta <= 2; delta += 1) values.push(around + delta);
    }
  }
  for (const value of values) {
    if (value > Number.MAX_SAFE_INTEGER) continue;
    t.is(compactNumber(value, { round: 'down' }), referenceCompact(value, 'down'), String(value));
    t.is(compactNumber(-value, { round: 'down' }), referenceCompact(-value, 'down'), String(-value));
  }
});

test('refuses NaN and infinities', (t) => {
  for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    t.throws(() => compactNumber(value), { instanceOf: RangeError }, String(value));
  }
});
