/**
 * Short number text shared by the number analyzer and the card's XP bar, so "1.2K" means the same
 * everywhere: one decimal, rounded half away from zero, a trailing ".0" dropped, and a value that
 * rounds up to 1000 of a unit promoted to the next unit (999 950 -> "1M", never "1000K").
 * Values of 1000T and above stay in T ("9007.2T"): no suffix past T is used.
 *
 * Rounding works on the number's shortest decimal text (what `String(value)` prints) in BigInt, so
 * it is exact where doubles would misround (1050 -> "1.1K", 2 675 000 -> "2.7M", 1.45 -> "1.5")
 * and huge values come out as plain digits (1e21 -> "1000000000T"), never in exponent notation.
 */
const UNITS = [
  { suffix: 'T', size: 1_000_000_000_000n },
  { suffix: 'B', size: 1_000_000_000n },
  { suffix: 'M', size: 1_000_000n },
  { suffix: 'K', size: 1_000n },
  { suffix: '', size: 1n },
] as const;

type Unit = (typeof UNITS)[number];

/** A non-negative decimal as `digits / denominator`, exactly. */
interface Decimal {
  digits: bigint;
  denominator: bigint;
}

const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

function decimalOf(magnitude: number): Decimal {
  const match = NUMBER_TEXT.exec(String(magnitude));
  if (match === null) throw new RangeError(`cannot abbreviate ${magnitude}`);
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  const digits = BigInt(whole + fraction);
  return shift >= 0
    ? { digits: digits * 10n ** BigInt(shift), denominator: 1n }
    : { digits, denominator: 10n ** BigInt(-shift) };
}

/** The value in tenths of the unit, rounded half up (the sign is handled by the caller). */
function tenthsOf(value: Decimal, unitSize: bigint): bigint {
  const denominator = value.denominator * unitSize;
  return (20n * value.digits + denominator) / (2n * denominator);
}

export function compactNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot abbreviate ${value}`);
  const decimal = decimalOf(Math.abs(value));
  // The largest unit the value reaches; below 1000 that is the bare number (size 1).
  let index = UNITS.findIndex((unit) => decimal.digits >= unit.size * decimal.denominator);
  if (index === -1) index = UNITS.length - 1;
  let tenths = tenthsOf(decimal, (UNITS[index] as Unit).size);
  if (tenths >= 10_000n && index > 0) {
    // Rounded up to 1000 of this unit: one of the next unit reads better than "1000K".
    index -= 1;
    tenths = tenthsOf(decimal, (UNITS[index] as Unit).size);
  }
  if (tenths === 0n) return '0';
  const whole = tenths / 10n;
  const fraction = tenths % 10n;
  return `${value < 0 ? '-' : ''}${whole}${fraction === 0n ? '' : `.${fraction}`}${(UNITS[index] as Unit).suffix}`;
}
