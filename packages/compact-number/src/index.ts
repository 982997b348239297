/**
 * Short number text shared by the number analyzer and the card's XP bar, so "1.2K" means the same
 * everywhere: one decimal, a trailing ".0" dropped, and the largest unit the value reaches.
 *
 * Units: K (10^3), M (10^6), B (10^9), T (10^12), then the game-style Qa (10^15), Qi (10^18),
 * Sx (10^21), Sp (10^24), Oc (10^27), No (10^30) and Dc (10^33). Values of 1000Dc and above stay
 * in Dc, written in plain digits ("1000Dc"): there is no agreed suffix past decillion.
 *
 * Rounding, on the magnitude (the sign is put back afterwards):
 * - `half-up` (default): half away from zero, and a value that rounds up to 1000 of a unit is
 *   promoted to the next unit (999 950 -> "1M", never "1000K"). Reads best for a number on its own.
 * - `down`: truncated toward zero (999 950 -> "999.9K"), so the text never claims a value that has
 *   not been reached. For progress such as "999.9K / 1M XP", where "1M / 1M" would read as done.
 *
 * Rounding works on the number's shortest decimal text (what `String(value)` prints) in BigInt, so
 * it is exact where doubles would misround (1050 -> "1.1K", 2 675 000 -> "2.7M", 1.45 -> "1.5")
 * and huge values come out as plain digits, never in exponent notation.
 */
const UNITS = [
  { suffix: 'Dc', size: 10n ** 33n },
  { suffix: 'No', size: 10n ** 30n },
  { suffix: 'Oc', size: 10n ** 27n },
  { suffix: 'Sp', size: 10n ** 24n },
  { suffix: 'Sx', size: 10n ** 21n },
  { suffix: 'Qi', size: 10n ** 18n },
  { suffix: 'Qa', size: 10n ** 15n },
  { suffix: 'T', size: 10n ** 12n },
  { suffix: 'B', size: 10n ** 9n },
  { suffix: 'M', size: 10n ** 6n },
  { suffix: 'K', size: 10n ** 3n },
  { suffix: '', size: 1n },
] as const;

type Unit = (typeof UNITS)[number];

type CompactRounding = 'half-up' | 'down';

interface CompactNumberOptions {
  /** `half-up` (default): half away from zero. `down`: toward zero, never showing more than the value. */
  round?: CompactRounding;
}

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

/** The value in tenths of the unit, rounded as asked (the sign is handled by the caller). */
function tenthsOf(value: Decimal, unitSize: bigint, round: CompactRounding): bigint {
  const denominator = value.denominator * unitSize;
  if (round === 'down') return (10n * value.digits) / denominator;
  return (20n * value.digits + denominator) / (2n * denominator);
}

export function compactNumber(value: number, options: CompactNumberOptions = {}): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot abbreviate ${value}`);
  const round = options.round ?? 'half-up';
  const decimal = decimalOf(Math.abs(value));
  // The largest unit the value reaches; below 1000 that is the bare number (size 1).
  let index = UNITS.findIndex((unit) => decimal.digits >= unit.size * decimal.denominator);
  if (index === -1) index = UNITS.length - 1;
  let tenths = tenthsOf(decimal, (UNITS[index] as Unit).size, round);
  // Only rounding up can reach 1000 of the unit the value is in; truncation stays below it.
  if (tenths >= 10_000n && index > 0) {
    // Rounded up to 1000 of this unit: one of the next unit reads better than "1000K".
    index -= 1;
    tenths = tenthsOf(decimal, (UNITS[index] as Unit).size, round);
  }
  if (tenths === 0n) return '0';
  const whole = tenths / 10n;
  const fraction = tenths % 10n;
  return `${value < 0 ? '-' : ''}${whole}${fraction === 0n ? '' : `.${fraction}`}${(UNITS[index] as Unit).suffix}`;
}
