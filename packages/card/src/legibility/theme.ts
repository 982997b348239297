import { DEFAULT_BACKGROUND_BRIGHTNESS, parseHexColor } from '@utility-api/render-jobs';
import type { Canvas } from 'canvas';
import type { CardFrame } from '../layout/card-layout.ts';
import { needsDarkGround, relativeLuminance } from './contrast.ts';
import type { Ground } from './ground.ts';

/**
 * Which theme a card takes: light text on a dark panel, or dark text on a light one. A chosen
 * `usernameColor` decides, as before (a dark name needs the light panel). Without one the
 * background does: a light photo keeps its light and gets the light theme, where the dark theme
 * used to veil it and then darken the panel until the photo was a grey slab.
 *
 * Only the decision lives here; how much panel each text still needs is the legibility step's
 * measurement (legibility-step.ts), which runs the same on either theme.
 */

/**
 * The median luminance (WCAG, 0-1) from which a background counts as light: sRGB grey 170. A
 * mid-tone photo stays on the dark theme, whose veil and panel suit it; a clearly light one (a
 * sky, snow, a white wall, a pastel design) takes the light theme and needs no darkening.
 */
const LIGHT_BACKGROUND_LUMINANCE = 0.4;

/** The background behind the panel is read at one pixel per 10x10: the median of a photo needs no more. */
const SAMPLE_STEP = 10;

/** The black veil of `backgroundBrightness`: 0 at 100, 0.85 at 1. */
function veilFor(brightness: number): number {
  return (0.85 * (100 - brightness)) / 99;
}

/**
 * Measured once per background canvas and veil: backgrounds are cached canvases (a server's
 * welcome image comes back for every member), and a card should not pay for the reading twice.
 */
const measured = new WeakMap<Canvas, Map<number, number>>();

/**
 * The median luminance of the background behind the panel, under a black veil of `veilAlpha`.
 * Only every SAMPLE_STEP-th row is read (one getImageData call each), every SAMPLE_STEP-th pixel
 * of it used: reading the whole panel, or scaling it down first, cost more than the rest of the
 * card's drawing.
 */
function backgroundLuminance(background: Canvas, veilAlpha: number, frame: CardFrame): number {
  const known = measured.get(background)?.get(veilAlpha);
  if (known !== undefined) return known;
  const { panel } = frame;
  const scale = background.width / frame.width;
  const context = background.getContext('2d');
  const left = Math.round(panel.x * scale);
  const width = Math.round(panel.width * scale);
  const step = SAMPLE_STEP * scale;
  const keep = 1 - veilAlpha;
  const luminances: number[] = [];
  for (let y = Math.round(panel.y * scale); y < (panel.y + panel.height) * scale; y += step) {
    const { data } = context.getImageData(left, y, width, 1);
    for (let offset = 0; offset < data.length; offset += step * 4) {
      luminances.push(relativeLuminance({ r: (data[offset] ?? 0) * keep, g: (data[offset + 1] ?? 0) * keep, b: (data[offset + 2] ?? 0) * keep }));
    }
  }
  luminances.sort((first, second) => first - second);
  const median = luminances[Math.floor(luminances.length / 2)] ?? 0;
  const forCanvas = measured.get(background) ?? new Map<number, number>();
  forCanvas.set(veilAlpha, median);
  measured.set(background, forCanvas);
  return median;
}

export interface CardTheme {
  ground: Ground;
  /** Opacity of the black veil over the background. */
  veilAlpha: number;
}

/**
 * The theme and veil of a card. The default brightness (60) is there so light text reads on a
 * photo; the light theme does not need it, so a light background that takes the light theme keeps
 * its brightness unless the caller set one (then the veiled photo decides the theme).
 */
export function chooseTheme(options: { usernameColor?: string | undefined; backgroundBrightness?: number | undefined }, background: Canvas, frame: CardFrame): CardTheme {
  const { usernameColor, backgroundBrightness } = options;
  const defaultVeil = veilFor(DEFAULT_BACKGROUND_BRIGHTNESS);
  if (usernameColor !== undefined) {
    const ground: Ground = needsDarkGround(parseHexColor(usernameColor)) ? 'dark' : 'light';
    return { ground, veilAlpha: backgroundBrightness !== undefined ? veilFor(backgroundBrightness) : ground === 'dark' ? defaultVeil : 0 };
  }
  if (backgroundBrightness !== undefined) {
    const veilAlpha = veilFor(backgroundBrightness);
    return { ground: backgroundLuminance(background, veilAlpha, frame) >= LIGHT_BACKGROUND_LUMINANCE ? 'light' : 'dark', veilAlpha };
  }
  return backgroundLuminance(background, 0, frame) >= LIGHT_BACKGROUND_LUMINANCE ? { ground: 'light', veilAlpha: 0 } : { ground: 'dark', veilAlpha: defaultVeil };
}
