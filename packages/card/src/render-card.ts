import { createCanvas } from 'canvas';
import type { CardInput } from './card-input.ts';
import { prepareCardFonts } from './fonts/card-fonts.ts';
import { CARD } from './layout/card-layout.ts';
import { encodePng } from './png-encoding.ts';
import { roundedRectPath } from './paint/shapes.ts';
import { buildScene } from './scene.ts';
import { RENDER_STEPS } from './steps/render-steps.ts';

export interface RenderedCard {
  png: Buffer;
  width: number;
  height: number;
  /** Milliseconds spent decoding and preparing images, drawing the steps, and encoding the PNG. */
  timings: { prepare: number; draw: number; encode: number; steps: Record<string, number> };
  warnings: string[];
}

/** Draws a card: a pure function from its input to PNG bytes (no network, no files but fonts). */
export async function renderCard(input: CardInput): Promise<RenderedCard> {
  prepareCardFonts();
  const started = performance.now();
  const scene = await buildScene(input);
  const prepared = performance.now();

  const canvas = createCanvas(CARD.width * scene.scale, CARD.height * scene.scale);
  const context = canvas.getContext('2d');
  context.scale(scene.scale, scene.scale);
  context.imageSmoothingEnabled = true;
  // node-canvas has no imageSmoothingQuality; its scaling filter is the non-standard patternQuality.
  context.patternQuality = 'good';
  // Everything is clipped to the card's rounded outline; the corners stay transparent.
  roundedRectPath(context, 0, 0, CARD.width, CARD.height, CARD.radius);
  context.clip();
  const steps: Record<string, number> = {};
  for (const step of RENDER_STEPS) {
    const stepStarted = performance.now();
    context.save();
    step.draw(context, scene);
    context.restore();
    steps[step.name] = performance.now() - stepStarted;
  }
  const drawn = performance.now();
  const png = encodePng(canvas);
  const encoded = performance.now();
  return {
    png,
    width: canvas.width,
    height: canvas.height,
    timings: { prepare: prepared - started, draw: drawn - prepared, encode: encoded - drawn, steps },
    warnings: scene.warnings,
  };
}
