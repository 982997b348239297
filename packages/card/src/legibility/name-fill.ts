import { parseHexColor, type Rgb } from '@utility-api/render-jobs';
import { fromHsl, toHsl } from '../color/color.ts';
import { contrastRatio, LARGE_TEXT_CONTRAST, needsDarkGround, relativeLuminance } from './contrast.ts';
import { GROUND_COLOR, type Ground } from './ground.ts';

/** Above the name's 3:1, as the legibility step aims above every target: glyph edges must not land under it. */
const NAME_FILL_TARGET = LARGE_TEXT_CONTRAST + 0.5;
/** Each lifting step moves the HSL lightness this much: hue and saturation stay the member's. */
const LIFT_STEP = 0.02;

const hex = ({ r, g, b }: Rgb) => `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

/** Whether a colour stands on the ground's side (light text on the dark ground) with the name's contrast to spare. */
function readsOn(color: Rgb, ground: Ground): boolean {
  const onDark = needsDarkGround(color);
  if (onDark !== (ground === 'dark')) return false;
  return contrastRatio(relativeLuminance(color), relativeLuminance(GROUND_COLOR[ground])) >= NAME_FILL_TARGET;
}

/**
 * A colour lifted (lighter on the dark ground, darker on the light one, in HSL lightness so its hue
 * and saturation stay) until it reads on the ground: a role colour is the member's, kept as close
 * as it can be, but never at the cost of the name. A colour that already reads is kept as it is;
 * at the end of the scale (white, black) every colour reads.
 */
export function liftForGround(color: string, ground: Ground): string {
  const rgb = parseHexColor(color);
  if (readsOn(rgb, ground)) return hex(rgb);
  const { h, s, l } = toHsl(rgb);
  for (let lightness = l; lightness >= 0 && lightness <= 1; lightness += ground === 'dark' ? LIFT_STEP : -LIFT_STEP) {
    const lifted = fromHsl(h, s, lightness);
    if (readsOn(lifted, ground)) return hex(lifted);
  }
  return ground === 'dark' ? '#ffffff' : '#000000';
}

/**
 * How the name is filled: one colour, or a left-to-right gradient of two or three (a role's
 * gradient, Discord's holographic style). `color` is the stop hardest to read on the ground (the
 * darkest on the dark ground), which the legibility step measures: every other stop reads better.
 */
export interface NameFill {
  color: string;
  gradient?: readonly string[] | undefined;
}

export function nameFill(colors: readonly string[], ground: Ground): NameFill {
  const stops = colors.map((color) => liftForGround(color, ground));
  const luminance = (color: string) => relativeLuminance(parseHexColor(color));
  const worst = stops.reduce((chosen, stop) => ((ground === 'dark' ? luminance(stop) < luminance(chosen) : luminance(stop) > luminance(chosen)) ? stop : chosen));
  return new Set(stops).size > 1 ? { color: worst, gradient: stops } : { color: worst };
}
