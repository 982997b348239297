import { HEX_COLOR, parseHexColor } from '@utility-api/render-jobs';
import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { isoTimestamp, percentText } from '../answer-fields.ts';

const querySchema = z.object({
  hex: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a color code such as #FF5733, FF5733 or #F53') })
    .regex(HEX_COLOR, {
      error: (issue) =>
        issue.input === ''
          ? 'is empty; in a URL "#" starts a fragment, so send it as %23 (hex=%23FF5733) or leave it out (hex=FF5733)'
          : 'must be a color code such as #FF5733, FF5733 or #F53',
    })
    .meta({ description: 'A color as `#RRGGBB` or `#RGB`, any letter case, `#` optional. Send `#` URL-encoded as `%23` or omit it.', examples: ['#FF5733'] }),
});

const componentSchema = z.object({ value: z.number().int().min(0).max(255), description: z.string(), percentage: z.string(), validity: z.boolean() });

const resultSchema = z.object({
  originalHex: z.string(),
  rgb: z.object({ r: componentSchema, g: componentSchema, b: componentSchema }),
  mainRgb: z.string(),
  conversionSuccess: z.boolean(),
  timestamp: z.string(),
});

export type HexToRgbResult = z.infer<typeof resultSchema>;

function component(value: number, name: string) {
  return { value, description: `${name} component (0-255)`, percentage: percentText((value / 255) * 100), validity: value >= 0 && value <= 255 };
}

export function hexToRgb(hex: string, clock: Clock): HexToRgbResult {
  const { r, g, b } = parseHexColor(hex);
  return {
    originalHex: hex,
    rgb: { r: component(r, 'Red'), g: component(g, 'Green'), b: component(b, 'Blue') },
    mainRgb: `${r}, ${g}, ${b}`,
    conversionSuccess: true,
    timestamp: isoTimestamp(clock),
  };
}

export function hexToRgbEndpoint(clock: Clock) {
  return defineEndpoint({
    operationId: 'hexToRgb',
    methods: ['GET'],
    path: '/v1/hex-to-rgb',
    summary: 'Convert a hexadecimal color code to RGB',
    description: [
      'Accepts `#RRGGBB` and the shorthand `#RGB` (each digit doubled, so `#F53` is `#FF5533`), in any letter case, with or without the leading `#`.',
      'Anything else (`#FF57`, `#GG0000`, an empty value, alpha forms such as `#FF573380`) is a 400.',
      '`originalHex` echoes the input exactly as sent. Each component has `value` (0-255), `description`',
      '(`Red component (0-255)` and so on), `percentage` (value / 255 as a percentage with at most two decimals) and `validity`',
      '(always `true` on a 200, since any two hex digits are a valid component).',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The color in RGB.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          originalHex: '#FF5733',
          rgb: {
            r: { value: 255, description: 'Red component (0-255)', percentage: '100%', validity: true },
            g: { value: 87, description: 'Green component (0-255)', percentage: '34.12%', validity: true },
            b: { value: 51, description: 'Blue component (0-255)', percentage: '20%', validity: true },
          },
          mainRgb: '255, 87, 51',
          conversionSuccess: true,
          timestamp: '2024-06-15T12:00:00.000Z',
        },
      },
      400: { description: '`hex` missing or not a 3- or 6-digit hex color.' },
    },
    handle: ({ query }) => hexToRgb(query.hex, clock),
  });
}
