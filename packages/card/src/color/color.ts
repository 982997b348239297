import type { Rgb } from '@utility-api/render-jobs';

export function rgba(color: Rgb, alpha = 1): string {
  return `rgba(${Math.round(color.r)}, ${Math.round(color.g)}, ${Math.round(color.b)}, ${alpha})`;
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return { r: from.r + (to.r - from.r) * amount, g: from.g + (to.g - from.g) * amount, b: from.b + (to.b - from.b) * amount };
}

const BLACK: Rgb = { r: 0, g: 0, b: 0 };
const WHITE: Rgb = { r: 255, g: 255, b: 255 };

export function darken(color: Rgb, amount: number): Rgb {
  return mix(color, BLACK, amount);
}

export function lighten(color: Rgb, amount: number): Rgb {
  return mix(color, WHITE, amount);
}

export function toHsl({ r, g, b }: Rgb): { h: number; s: number; l: number } {
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === red ? (green - blue) / d + (green < blue ? 6 : 0) : max === green ? (blue - red) / d + 2 : (red - green) / d + 4;
  return { h: h * 60, s, l };
}

export function fromHsl(h: number, s: number, l: number): Rgb {
  const hue = (((h % 360) + 360) % 360) / 360;
  if (s === 0) return { r: l * 255, g: l * 255, b: l * 255 };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return { r: channel(hue + 1 / 3) * 255, g: channel(hue) * 255, b: channel(hue - 1 / 3) * 255 };
}

/** Same color turned around the hue wheel; saturation and lightness kept. */
export function rotateHue(color: Rgb, degrees: number): Rgb {
  const { h, s, l } = toHsl(color);
  return fromHsl(h + degrees, s, l);
}

/** Keeps hue, clamps saturation and lightness into a range that reads well behind white text. */
export function tame(color: Rgb, limits: { minSaturation: number; maxLightness: number; minLightness: number }): Rgb {
  const { h, s, l } = toHsl(color);
  return fromHsl(h, Math.max(s, limits.minSaturation), Math.min(Math.max(l, limits.minLightness), limits.maxLightness));
}

/**
 * Dark yellows and yellow-greens read as olive and mud behind text: a hue in that band moves to
 * its nearest clean neighbour (amber below the band's middle, green above); others are kept.
 */
export function avoidMuddyHue(color: Rgb): Rgb {
  const { h, s, l } = toHsl(color);
  if (h < 45 || h > 100) return color;
  return fromHsl(h < 72 ? 32 : 135, s, l);
}
