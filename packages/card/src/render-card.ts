import { Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import type { CardInput } from './profile/card-profile.ts';
import { prepareCardFonts } from './fonts/card-fonts.ts';
import type { CardFrame } from './layout/card-layout.ts';
import { roundedRectPath } from './paint/shapes.ts';
import type { PlacedText } from './layout/placed-text.ts';
import { accentColor } from './paint/palette.ts';
import { buildScene } from './scene.ts';
import { layoutSteps } from './steps/render-steps.ts';
import { withCardFontFamily } from './text/rich-text.ts';

/**
 * PNG settings, chosen by measurement on this project's cards (`pnpm card:bench` prints the full
 * table; docs/card-design.md keeps a copy): zlib level 3 without row filtering. Encoding is the
 * largest single cost of a render. CPU per encode (process.cpuUsage, median of 8 interleaved
 * rounds over two cards of each bench set, 2-core shared machine, 2026-11-26) and mean size:
 *   level 1: 5.32 ms, 146 KB | level 2: 5.46 ms, 140 KB | level 3: 5.66 ms, 135 KB
 *   level 4: 7.29 ms, 113 KB | level 5: 8.44 ms, 106 KB | level 6: 10.60 ms, 102 KB
 * Level 3 is the knee: 1.6 ms (22%) less than level 4 for 19% more bytes, where level 1 saves only
 * 0.34 ms more for another 11 KB. The gateway handles the bytes a few times (IPC, two SHA-256
 * hashes, the store write, the answer): one hash and one copy of 22 KB take 0.03 ms here, so the
 * extra bytes cost it well under 0.1 ms; the clients' download and the store's disk pay the rest.
 * Node-canvas's
 * default (level 6, adaptive filters) takes ~25 ms for ~98 KB; a filter does not pay at these
 * levels: zlib finds the repeats in raw RGBA rows that a filter would have to create. The filter
 * constants exist only on the Canvas class; read from an instance they are undefined and silently
 * ignored.
 */
export const PNG_ENCODING = { compressionLevel: 3, filters: Canvas.PNG_FILTER_NONE } as const;

export interface RenderedCard {
  png: Buffer;
  width: number;
  height: number;
  /** Milliseconds spent decoding and preparing images, drawing the steps, and encoding the PNG. */
  timings: { prepare: number; draw: number; encode: number; steps: Record<string, number> };
  warnings: string[];
  /** The card's accent, `#rrggbb` (paint/palette.ts `accentColor`). */
  accentColor: string;
  /** Every text drawn, where and how (1x pixels): what the legibility tests measure the PNG against. */
  texts: PlacedText[];
}

/** A context for drawing card layers on `canvas` (the pixel size of the card's `frame`) in 1x coordinates. */
export function cardContext(canvas: Canvas, frame: CardFrame, scale: number): CanvasRenderingContext2D {
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  context.imageSmoothingEnabled = true;
  // node-canvas has no imageSmoothingQuality; its scaling filter is the non-standard patternQuality.
  context.patternQuality = 'good';
  // Everything is clipped to the card's rounded outline; the corners stay transparent.
  roundedRectPath(context, 0, 0, frame.width, frame.height, frame.radius);
  context.clip();
  return context;
}

/** Draws a card: a pure function from its input to PNG bytes (no network, no files but fonts). */
export async function renderCard(input: CardInput): Promise<RenderedCard> {
  prepareCardFonts();
  const started = performance.now();
  const scene = await buildScene(input);
  const prepared = performance.now();

  const canvas = createCanvas(scene.frame.width * scene.scale, scene.frame.height * scene.scale);
  const context = cardContext(canvas, scene.frame, scene.scale);
  const steps: Record<string, number> = {};
  const layout = layoutSteps(scene.layout);
  // Every text of the card, drawn and laid out, in its `fontFamily` (rich-text.ts says why it is scoped).
  const texts = withCardFontFamily(scene.fontFamily, () => {
    for (const step of layout.steps) {
      const stepStarted = performance.now();
      context.save();
      step.draw(context, scene);
      context.restore();
      steps[step.name] = performance.now() - stepStarted;
    }
    return layout.texts(context, scene);
  });
  const drawn = performance.now();
  const png = canvas.toBuffer('image/png', PNG_ENCODING);
  const encoded = performance.now();
  return {
    png,
    width: canvas.width,
    height: canvas.height,
    timings: { prepare: prepared - started, draw: drawn - prepared, encode: encoded - drawn, steps },
    warnings: scene.warnings,
    accentColor: accentColor(scene.palette),
    texts,
  };
}
