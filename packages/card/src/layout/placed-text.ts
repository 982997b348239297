import { parseHexColor, type Rgb } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import type { Rect } from '../paint/shapes.ts';
import { drawText, type TextStyle } from '../text/rich-text.ts';

/**
 * A run of text where a step will draw it. Steps lay their text out before anything is drawn, so
 * the legibility step can measure the pixels behind every run first; the same list is returned
 * with the rendered card, for tests and debugging.
 */
export interface PlacedText {
  /** What the run is: `name`, `tag`, `rank value`, `date`, … */
  role: string;
  text: string;
  /** Left edge and alphabetic baseline, in 1x pixels. */
  x: number;
  baseline: number;
  width: number;
  style: TextStyle;
  /** The contrast the run must reach against the pixels behind it (legibility/contrast.ts). */
  minContrast: number;
}

/** Where a run's glyphs are: capitals and most accents above the baseline, descenders below. */
export function textBounds(placed: PlacedText): Rect {
  const { size } = placed.style;
  return { x: placed.x, y: placed.baseline - size * 0.8, width: placed.width, height: size * 1.05 };
}

/** A run's color as RGB; text colors on the card are always `#rrggbb`. */
export function textColor(placed: PlacedText): Rgb {
  return parseHexColor(placed.style.color);
}

/**
 * A layout computed once per card and context, however many steps ask for it: the legibility step
 * and the step that draws the text both need it, and measuring text through Pango is not free.
 */
export function layoutOncePerCard<Card extends object, Layout>(compute: (context: CanvasRenderingContext2D, card: Card) => Layout) {
  const layouts = new WeakMap<Card, Layout>();
  return (context: CanvasRenderingContext2D, card: Card): Layout => {
    let layout = layouts.get(card);
    if (layout === undefined) {
      layout = compute(context, card);
      layouts.set(card, layout);
    }
    return layout;
  };
}

/** Draws placed runs; their emoji get the card's soft shadow, whose colour follows the ground (drawText says why only emoji). */
export function drawPlacedTexts(context: CanvasRenderingContext2D, runs: readonly PlacedText[], shadowColor: string): void {
  context.save();
  context.shadowColor = shadowColor;
  context.shadowBlur = 8;
  context.shadowOffsetY = 1;
  for (const run of runs) drawText(context, run.text, run.x, run.baseline, run.style);
  context.restore();
}
