import { z } from 'zod';

/**
 * `#RGB` or `#RRGGBB`, any case, `#` optional: the one spelling of a colour the API accepts. Both
 * cases are spelled out instead of an `i` flag: the OpenAPI document carries the pattern's source,
 * and JSON Schema patterns have no flags.
 */
export const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

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

/** A hex colour field, normalized to lowercase `#rrggbb`. */
export function hexColorField(description: string) {
  return z
    .string({ error: 'must be a color such as #FF5733 or #F53' })
    .regex(HEX_COLOR, { error: 'must be a color such as #FF5733 or #F53' })
    .transform((text) => `#${fullDigits(text)}`)
    .meta({ description, examples: ['#FF5733'] });
}
