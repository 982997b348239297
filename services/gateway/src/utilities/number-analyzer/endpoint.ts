import { compactNumber } from '@utility-api/compact-number';
import { z } from 'zod';
import { defineEndpoint } from '../../http/endpoint.ts';
import { groupThousands, isArmstrong, isFibonacci, isPalindrome, isPerfectSquare, isPrime } from './number-properties.ts';

// Any count of digits: leading zeros are allowed, and text past the safe range fails the refine below.
const INTEGER_TEXT = /^[+-]?\d+$/;
const SAFE_RANGE = `from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;

const querySchema = z.object({
  integer: z.preprocess(
    (value) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : `must be a whole number ${SAFE_RANGE}, written in digits`) })
      // int() is the safe integers in zod 4, and documents itself as an integer between the same bounds.
      .int({ error: `must be a whole number ${SAFE_RANGE}` })
      .meta({ description: `A whole number ${SAFE_RANGE} (the safe integers), in plain digits with an optional sign.`, examples: [1234567] }),
  ),
});

const resultSchema = z.object({
  formatted1: z.string(),
  formatted2: z.string(),
  abbreviated: z.string(),
  integer: z.number().int(),
  isEven: z.boolean(),
  isOdd: z.boolean(),
  isPrime: z.boolean(),
  isFibonacci: z.boolean(),
  isPerfectSquare: z.boolean(),
  isArmstrong: z.boolean(),
  isPalindrome: z.boolean(),
  isDivisibleBy3: z.boolean(),
  numberType: z.literal('integer'),
  isGreaterThanZero: z.boolean(),
  isNegative: z.boolean(),
  absoluteValue: z.number().int(),
});

export type NumberAnalysis = z.infer<typeof resultSchema>;

export function analyzeNumber(value: number): NumberAnalysis {
  // Normalizes -0 so no field ever shows it.
  const integer = value === 0 ? 0 : value;
  return {
    formatted1: groupThousands(integer, ','),
    formatted2: groupThousands(integer, '.'),
    abbreviated: compactNumber(integer),
    integer,
    isEven: integer % 2 === 0,
    isOdd: integer % 2 !== 0,
    isPrime: isPrime(integer),
    isFibonacci: isFibonacci(integer),
    isPerfectSquare: isPerfectSquare(integer),
    isArmstrong: isArmstrong(integer),
    isPalindrome: isPalindrome(integer),
    isDivisibleBy3: integer % 3 === 0,
    numberType: 'integer',
    isGreaterThanZero: integer > 0,
    isNegative: integer < 0,
    absoluteValue: Math.abs(integer),
  };
}

export function numberAnalyzerEndpoint() {
  return defineEndpoint({
    operationId: 'numberAnalyzer',
    methods: ['GET'],
    path: '/v1/number-analyzer',
    summary: 'Formatting and mathematical properties of an integer',
    description: [
      `\`integer\` must be a safe integer (${SAFE_RANGE}) in plain digits with an optional sign; leading zeros are allowed.`,
      'Decimals (`1.5`), exponents (`1e3`), hex, spaces, text and larger numbers are a 400, never rounded. `numberType` is therefore always `integer`.',
      '`formatted1` groups thousands with commas, `formatted2` with periods.',
      '`abbreviated` writes the number in the largest unit it reaches, from the scale K (10^3), M (10^6), B (10^9), T (10^12), Qa (10^15),',
      'Qi (10^18), Sx (10^21), Sp (10^24), Oc (10^27), No (10^30), Dc (10^33); safe integers go no further than Qa (`9007199254740991` → `9Qa`).',
      'One decimal, rounded half away from zero, a trailing `.0` dropped, and a number that rounds up to 1000 of a unit is written',
      'in the next one (`1250` → `1.3K`, `-1250` → `-1.3K`, `999950` → `1M`, `999950000000000` → `1Qa`); below 1000 the number is shown as is.',
      '`isPrime` is exact for every safe integer (deterministic Miller-Rabin); numbers below 2 are not prime.',
      '`isFibonacci`, `isPerfectSquare` and `isArmstrong` are false for negative numbers; 0 is a Fibonacci number and a perfect square.',
      '`isPalindrome` reads the decimal text with its sign, so negative numbers are never palindromes.',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The analysis.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          formatted1: '1,234,567',
          formatted2: '1.234.567',
          abbreviated: '1.2M',
          integer: 1234567,
          isEven: false,
          isOdd: true,
          isPrime: false,
          isFibonacci: false,
          isPerfectSquare: false,
          isArmstrong: false,
          isPalindrome: false,
          isDivisibleBy3: false,
          numberType: 'integer',
          isGreaterThanZero: true,
          isNegative: false,
          absoluteValue: 1234567,
        },
      },
      400: { description: '`integer` missing, not an integer, or outside the safe integer range.' },
    },
    handle: ({ query }) => analyzeNumber(query.integer),
  });
}
