import { randomBytes } from 'node:crypto';

/** Randomness, injected so tests can replay a sequence; production draws from the OS CSPRNG. */
export interface RandomSource {
  /** A uniformly distributed float in [0, 1) with 53 bits of precision. */
  float(): number;
  /** A uniformly distributed integer in [0, maxExclusive). */
  integer(maxExclusive: number): number;
}

const TWO_POW_53 = 2 ** 53;

function integerFromFloats(float: () => number, maxExclusive: number): number {
  if (!Number.isSafeInteger(maxExclusive) || maxExclusive <= 0) {
    throw new RangeError(`maxExclusive must be a positive safe integer, got ${maxExclusive}`);
  }
  return Math.floor(float() * maxExclusive);
}

/**
 * Buffers CSPRNG output: one `randomBytes` call per 512 draws instead of one syscall each.
 * Multiplying a 53-bit uniform by n has a bias of at most n / 2^53, far below anything a
 * coin flip or a shuffle of a few dozen letters can show.
 */
export function cryptoRandomSource(): RandomSource {
  const DRAWS_PER_REFILL = 512;
  let pool = randomBytes(DRAWS_PER_REFILL * 8);
  let offset = 0;
  const float = (): number => {
    if (offset >= pool.length) {
      pool = randomBytes(DRAWS_PER_REFILL * 8);
      offset = 0;
    }
    const high = pool.readUInt32BE(offset) >>> 11; // 21 bits
    const low = pool.readUInt32BE(offset + 4); // 32 bits
    offset += 8;
    return (high * 2 ** 32 + low) / TWO_POW_53;
  };
  return { float, integer: (maxExclusive) => integerFromFloats(float, maxExclusive) };
}

/** A reproducible sequence (mulberry32) for tests and examples; never for production draws. */
export function seededRandomSource(seed: number): RandomSource {
  let state = seed >>> 0;
  const next32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const float = (): number => ((next32() >>> 11) * 2 ** 32 + next32()) / TWO_POW_53;
  return { float, integer: (maxExclusive) => integerFromFloats(float, maxExclusive) };
}
