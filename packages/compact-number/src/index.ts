/**
 * Short number text shared by the number analyzer and the card's XP bar, so "1.2K" means the same
 * everywhere: one decimal, rounded half away from zero, a trailing ".0" dropped, and a value that
 * rounds up to 1000 of a unit promoted to the next unit (999 950 -> "1M", never "1000K").
 * Values of 1000T and above stay in T ("9007.2T"): no suffix past T is used.
 */
const UNITS = [
  { suffix: 'T', size: 1_000_000_000_000 },
  { suffix: 'B', size: 1_000_000_000 },
  { suffix: 'M', size: 1_000_000 },
  { suffix: 'K', size: 1_000 },
] as const;

function tenthsOf(magnitude: number, unitSize: number): number {
  if (Number.isSafeInteger(magnitude)) {
    // BigInt keeps the half-up rounding exact where magnitude * 10 passes 2^53.
    const size = BigInt(unitSize);
    return Number((BigInt(magnitude) * 10n + size / 2n) / size);
  }
  return Math.round((magnitude * 10) / unitSize);
}

function formatTenths(tenths: number): string {
  const whole = Math.trunc(tenths / 10);
  const fraction = tenths % 10;
  return fraction === 0 ? String(whole) : `${whole}.${fraction}`;
}

export function compactNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot abbreviate ${value}`);
  const sign = value < 0 ? '-' : '';
  const magnitude = Math.abs(value);
  for (let index = 0; index < UNITS.length; index += 1) {
    const unit = UNITS[index] as (typeof UNITS)[number];
    if (magnitude < unit.size) continue;
    const tenths = tenthsOf(magnitude, unit.size);
    const larger = UNITS[index - 1];
    if (tenths >= 10_000 && larger !== undefined) {
      return `${sign}${formatTenths(tenthsOf(magnitude, larger.size))}${larger.suffix}`;
    }
    return `${sign}${formatTenths(tenths)}${unit.suffix}`;
  }
  // Below 1000: whole numbers as they are, fractions to one decimal like the larger units.
  const rounded = Number.isInteger(magnitude) ? magnitude : Math.round(magnitude * 10) / 10;
  if (rounded >= 1000) return `${sign}1K`;
  return rounded === 0 ? '0' : `${sign}${rounded}`;
}
