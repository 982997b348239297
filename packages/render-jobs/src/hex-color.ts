import { z } from 'zod';

/**
 * `#RGB` or `#RRGGBB`, any case, `#` optional: the one spelling of a colour the API accepts. Both
 * cases are spelled out instead of an `i` flag: the OpenAPI document carries the pattern's source,
 * and JSON Schema patterns have no flags.
 */
export const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The largest 24-bit colour: Discord sends colours (role colours, `member.displayColor`) as such integers. */
const MAX_INTEGER_COLOR = 0xff_ff_ff;

/** An sRGB colour with channels 0-255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The six lowercase digits of a hex colour (shorthand digits doubled), or undefined. */
function fullDigits(text: string): string | undefined {
  const digits = HEX_COLOR.exec(text)?.[1]?.toLowerCase();
  return digits?.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
}

/** The channels of a hex colour; throws a RangeError for anything else. */
export function parseHexColor(text: string): Rgb {
  const digits = fullDigits(text);
  if (digits === undefined) throw new RangeError(`not a hex color: ${text}`);
  const value = Number.parseInt(digits, 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

/** An sRGB colour as `#rrggbb` (channels rounded and clamped to 0-255). */
export function rgbToHex({ r, g, b }: Rgb): string {
  const channel = (value: number) => Math.min(255, Math.max(0, Math.round(value)));
  return integerColorToHex((channel(r) << 16) | (channel(g) << 8) | channel(b));
}

/** A 24-bit integer colour as `#rrggbb`, the one spelling the card draws with. */
export function integerColorToHex(value: number): string {
  return `#${value.toString(16).padStart(6, '0')}`;
}

const COLOR_ERROR = 'must be a color such as #FF5733, #F53 or a Discord integer color from 0 to 16777215';

/**
 * A colour field: `#hex`, or Discord's integer colour (0-16777215, such as discord.js's
 * `member.displayColor`), both normalized to lowercase `#rrggbb` so the card has one spelling to
 * draw and identical colours share one render. The document states both shapes in one schema (below).
 */
export function hexColorField(description: string) {
  const hex = z
    .string({ error: COLOR_ERROR })
    .regex(HEX_COLOR, { error: COLOR_ERROR })
    .transform((text) => `#${fullDigits(text)}`);
  const integer = z
    .number({ error: COLOR_ERROR })
    .int({ error: COLOR_ERROR })
    .min(0, { error: COLOR_ERROR })
    .max(MAX_INTEGER_COLOR, { error: COLOR_ERROR })
    .transform(integerColorToHex);
  // The document states both shapes as one JSON Schema, `type: ["string", "integer"]` with the
  // string's pattern and the integer's range (each keyword applies to its own type): exact, one
  // schema for the body and for the echoed options (strings), and still a string with a hex
  // pattern to tools that pick the first type (the playground draws a colour picker for it).
  // One message for anything else, where the union would list both shapes' complaints.
  return z
    .union([hex, integer], { error: (issue) => (issue.code === 'invalid_union' ? COLOR_ERROR : undefined) })
    .meta({
      description: `${description} \`#RRGGBB\`/\`#RGB\`, or Discord's integer color (0-16777215, such as discord.js \`member.displayColor\`); echoed back as lowercase \`#rrggbb\`.`,
      examples: ['#FF5733', 5793266],
      // Replaces the union's generated `anyOf` of two branches with the one schema below.
      anyOf: undefined,
      type: ['string', 'integer'],
      pattern: HEX_COLOR.source,
      minimum: 0,
      maximum: MAX_INTEGER_COLOR,
    });
}
