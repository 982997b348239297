import { Canvas, CanvasRenderingContext2D, createCanvas } from 'canvas';
import type { CardInput } from './profile/card-profile.ts';
import { prepareCardFonts } from './fonts/card-fonts.ts';
import { roundedRectPath } from './paint/shapes.ts';
import type { PlacedText } from './layout/placed-text.ts';
import { accentColor } from './paint/palette.ts';
import { buildScene, type Scene } from './scene.ts';
import { layoutSteps } from './steps/render-steps.ts';
import { drawInFamily } from './text/rich-text.ts';

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

/** What a card's drawing context is set up from: the layout's frame, the scale, and the family its text is drawn in. */
export type CardContextScene = Pick<Scene, 'frame' | 'scale' | 'fontFamily'>;

/**
 * A context for drawing card layers on `canvas` (the pixel size of the card's `frame`) in 1x
 * coordinates, whose text is drawn in the card's `fontFamily` (rich-text.ts `drawInFamily`). The
 * corners stay transparent: a still card's background comes with them cut out (scene.ts) and the
 * layers over the whole card keep to its outline, so it needs no clip; `clipToCard` clips to the
 * outline, for an animated card, whose background frames are square.
 */
export function cardContext(canvas: Canvas, scene: CardContextScene, { clipToCard }: { clipToCard: boolean }): CanvasRenderingContext2D {
  return setUpCardContext(canvas.getContext('2d'), scene, { clipToCard });
}

function setUpCardContext(context: CanvasRenderingContext2D, { frame, scale, fontFamily }: CardContextScene, { clipToCard }: { clipToCard: boolean }): CanvasRenderingContext2D {
  drawInFamily(context, fontFamily);
  context.scale(scale, scale);
  context.imageSmoothingEnabled = true;
  // node-canvas has no imageSmoothingQuality; its scaling filter is the non-standard patternQuality.
  context.patternQuality = 'good';
  if (clipToCard) {
    roundedRectPath(context, 0, 0, frame.width, frame.height, frame.radius);
    context.clip();
  }
  return context;
}

/**
 * The canvases every still card of this process is drawn on, then encoded: one per pixel size
 * (frame width, height and scale), so a few at most (two frames, two scales). A new canvas's pixel
 * memory is fresh pages the kernel zeroes as the background first touches them, which cost more
 * than drawing the background itself. Sharing is safe because a card is drawn and encoded without
 * a pause (no `await` from its first step to its PNG), and the background step copies its rounded
 * bitmap over every pixel, corners included, so nothing of the previous card remains.
 */
const stillCardCanvases = new Map<string, Canvas>();

/** More than the frames and scales there are: a bound in case a layout with a new frame comes without a look here. */
const MAX_STILL_CARD_CANVASES = 8;

/**
 * node-canvas keeps one context per canvas (`getContext`), and a context carries Pango state that
 * save and restore do not cover (measuring uses the paragraph direction of the last text drawn),
 * so each card gets a new context on the shared canvas, as it would on a new canvas.
 */
const NewContextOn = CanvasRenderingContext2D as unknown as new (canvas: Canvas) => CanvasRenderingContext2D;

function stillCardContext(scene: CardContextScene): { canvas: Canvas; context: CanvasRenderingContext2D } {
  const { frame, scale } = scene;
  const key = `${frame.width}x${frame.height}@${scale}`;
  let canvas = stillCardCanvases.get(key);
  if (canvas === undefined) {
    if (stillCardCanvases.size >= MAX_STILL_CARD_CANVASES) {
      const oldest = stillCardCanvases.keys().next();
      if (!oldest.done) stillCardCanvases.delete(oldest.value);
    }
    canvas = createCanvas(frame.width * scale, frame.height * scale);
    stillCardCanvases.set(key, canvas);
  }
  return { canvas, context: setUpCardContext(new NewContextOn(canvas), scene, { clipToCard: false }) };
}

/** Draws a card: a pure function from its input to PNG bytes (no network, no files but fonts). */
export async function renderCard(input: CardInput): Promise<RenderedCard> {
  prepareCardFonts();
  const started = performance.now();
  const scene = await buildScene(input);
  const prepared = performance.now();

  // From here to the PNG, no await: the canvas is shared by every still card of its size.
  const { canvas, context } = stillCardContext(scene);
  const steps: Record<string, number> = {};
  const layout = layoutSteps(scene.layout);
  // Every text of the card is drawn and laid out in its `fontFamily`, which the context carries.
  for (const step of layout.steps) {
    const stepStarted = performance.now();
    context.save();
    step.draw(context, scene);
    context.restore();
    steps[step.name] = performance.now() - stepStarted;
  }
  const texts = layout.texts(context, scene);
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
