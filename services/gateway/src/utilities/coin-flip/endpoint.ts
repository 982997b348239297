import { z } from 'zod';
import { validationError, type FieldProblem } from '../../http/api-error.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { RandomSource } from '../../runtime/random-source.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { isoTimestamp, percentText } from '../answer-fields.ts';
import { queryNumber } from '../query-fields.ts';

const querySchema = z.object({
  heads: queryNumber({ min: 0, max: 100, description: 'Percentage chance of Heads, 0-100.', example: 70 }).optional(),
  tails: queryNumber({ min: 0, max: 100, description: 'Percentage chance of Tails, 0-100.', example: 30 }).optional(),
});

const resultSchema = z.object({
  result: z.enum(['Heads', 'Tails']),
  description: z.string(),
  flipCount: z.literal(1),
  timestamp: z.string(),
  probability: z.object({ heads: z.string(), tails: z.string() }),
  flipMethod: z.enum(['Simulated Randomly', 'Custom Probability']),
  isValid: z.boolean(),
});

export type CoinFlipResult = z.infer<typeof resultSchema>;

const DESCRIPTIONS = { Heads: 'Heads: The coin landed on the head side.', Tails: 'Tails: The coin landed on the tails side.' } as const;

/** Floating-point slack for pairs such as 33.3 + 66.7 that do not sum to exactly 100 in binary. */
const SUM_TOLERANCE = 1e-9;

export interface CoinOdds {
  heads: number;
  custom: boolean;
}

/** Resolves the optional pair into Heads odds, or the problems that make the pair unusable. */
export function resolveCoinOdds(heads: number | undefined, tails: number | undefined): CoinOdds | FieldProblem[] {
  if (heads === undefined && tails === undefined) return { heads: 50, custom: false };
  if (heads !== undefined && tails !== undefined && Math.abs(heads + tails - 100) > SUM_TOLERANCE) {
    return [{ in: 'query', field: 'heads', message: `heads (${heads}) and tails (${tails}) must add up to 100` }];
  }
  return { heads: heads ?? 100 - (tails as number), custom: true };
}

export function flipCoin(odds: CoinOdds, random: RandomSource, clock: Clock): CoinFlipResult {
  // float() is in [0, 1): heads 0 never lands Heads and heads 100 always does.
  const result = random.float() * 100 < odds.heads ? 'Heads' : 'Tails';
  return {
    result,
    description: DESCRIPTIONS[result],
    flipCount: 1,
    timestamp: isoTimestamp(clock),
    probability: { heads: percentText(odds.heads), tails: percentText(100 - odds.heads) },
    flipMethod: odds.custom ? 'Custom Probability' : 'Simulated Randomly',
    isValid: true,
  };
}

export function coinFlipEndpoint(random: RandomSource, clock: Clock) {
  return defineEndpoint({
    operationId: 'coinFlip',
    methods: ['GET'],
    path: '/v1/coin-flip',
    summary: 'Flip a coin, optionally with custom odds',
    description: [
      '`heads` and `tails` are percentages from 0 to 100 (decimals allowed). Give neither for a fair coin',
      '(`flipMethod` `Simulated Randomly`); give one and the other is 100 minus it; give both and they must add up to 100.',
      'Any custom odds, even 50/50, report `flipMethod` `Custom Probability`. `probability` shows the odds used,',
      'with at most two decimals. The draw comes from the operating system\'s CSPRNG (`node:crypto`). `flipCount` is always 1.',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The flip.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          result: 'Heads',
          description: 'Heads: The coin landed on the head side.',
          flipCount: 1,
          timestamp: '2024-06-15T12:00:00.000Z',
          probability: { heads: '70%', tails: '30%' },
          flipMethod: 'Custom Probability',
          isValid: true,
        },
      },
      400: { description: 'A percentage outside 0-100, not a number, or a pair that does not add up to 100.' },
    },
    handle: ({ query }) => {
      const odds = resolveCoinOdds(query.heads, query.tails);
      if (Array.isArray(odds)) throw validationError(odds);
      return flipCoin(odds, random, clock);
    },
  });
}
