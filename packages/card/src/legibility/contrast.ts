import type { Rgb } from '@utility-api/render-jobs';

/**
 * WCAG 2 relative luminance and contrast, the measures the card's legibility rules are written in
 * (docs/card-design.md): small text needs 4.5:1 against what is behind it, the name (large, bold)
 * 3:1. Shared with the tests, which measure the rendered PNG with the same formulas.
 */
export const SMALL_TEXT_CONTRAST = 4.5;
export const LARGE_TEXT_CONTRAST = 3;

function linear(channel: number): number {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(color: Rgb): number {
  return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b);
}

export function contrastRatio(first: number, second: number): number {
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

/** Whether a text color reads better on a dark ground (light text) than on a light one. */
export function needsDarkGround(text: Rgb): boolean {
  const luminance = relativeLuminance(text);
  return contrastRatio(luminance, 0) >= contrastRatio(luminance, 1);
}
