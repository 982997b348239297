/** Exact integer predicates for every safe integer, using BigInt where doubles would round. */

function integerSquareRoot(value: bigint): bigint {
  // The double estimate is off by at most a few units even for 5 * (2^53)^2, so the loops are short.
  let root = BigInt(Math.floor(Math.sqrt(Number(value))));
  while (root * root > value) root -= 1n;
  while ((root + 1n) * (root + 1n) <= value) root += 1n;
  return root;
}

function isSquare(value: bigint): boolean {
  if (value < 0n) return false;
  const root = integerSquareRoot(value);
  return root * root === value;
}

export function isPerfectSquare(value: number): boolean {
  return value >= 0 && isSquare(BigInt(value));
}

/** n is a Fibonacci number exactly when 5n²+4 or 5n²-4 is a perfect square. */
export function isFibonacci(value: number): boolean {
  if (value < 0) return false;
  const big = BigInt(value);
  return isSquare(5n * big * big + 4n) || isSquare(5n * big * big - 4n);
}

function modularPower(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let factor = base % modulus;
  let remaining = exponent;
  while (remaining > 0n) {
    if (remaining & 1n) result = (result * factor) % modulus;
    factor = (factor * factor) % modulus;
    remaining >>= 1n;
  }
  return result;
}

/** These witnesses make Miller-Rabin deterministic below 3.3 * 10^24, far past 2^53. */
const MILLER_RABIN_WITNESSES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n];

export function isPrime(value: number): boolean {
  if (value < 2) return false;
  if (value < 4) return true;
  if (value % 2 === 0 || value % 3 === 0) return false;
  if (value < 1_000_000) {
    for (let divisor = 5; divisor * divisor <= value; divisor += 6) {
      if (value % divisor === 0 || value % (divisor + 2) === 0) return false;
    }
    return true;
  }
  const candidate = BigInt(value);
  let oddPart = candidate - 1n;
  let twos = 0;
  while ((oddPart & 1n) === 0n) {
    oddPart >>= 1n;
    twos += 1;
  }
  witnesses: for (const witness of MILLER_RABIN_WITNESSES) {
    let x = modularPower(witness, oddPart, candidate);
    if (x === 1n || x === candidate - 1n) continue;
    for (let round = 1; round < twos; round += 1) {
      x = (x * x) % candidate;
      if (x === candidate - 1n) continue witnesses;
    }
    return false;
  }
  return true;
}

/** An Armstrong (narcissistic) number equals the sum of its digits each raised to the digit count. */
export function isArmstrong(value: number): boolean {
  if (value < 0) return false;
  const digits = String(value);
  const power = BigInt(digits.length);
  let sum = 0n;
  for (const digit of digits) sum += BigInt(digit) ** power;
  return sum === BigInt(value);
}

/** Compares the decimal text with its sign, so negative numbers are never palindromes. */
export function isPalindrome(value: number): boolean {
  const text = String(value);
  return text === [...text].reverse().join('');
}

export function groupThousands(value: number, separator: string): string {
  const digits = String(Math.abs(value));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return value < 0 ? `-${grouped}` : grouped;
}
