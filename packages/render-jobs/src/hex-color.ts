import { z } from 'zod';

const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#RGB` or `#RRGGBB`, any case, `#` optional; normalized to lowercase `#rrggbb`. */
export function normalizeHexColor(text: string): string | undefined {
  const digits = HEX_COLOR.exec(text)?.[1];
  if (digits === undefined) return undefined;
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return `#${full.toLowerCase()}`;
}

export function hexColorField(description: string) {
  return z
    .string({ error: 'must be a color such as #FF5733 or #F53' })
    .refine((text) => normalizeHexColor(text) !== undefined, { error: 'must be a color such as #FF5733 or #F53' })
    .transform((text) => normalizeHexColor(text) as string)
    .meta({ description, examples: ['#FF5733'] });
}
