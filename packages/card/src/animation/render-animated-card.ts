import { type Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { prepareCardFonts } from '../fonts/card-fonts.ts';
import { CardImageError } from '../images/card-image-error.ts';
import { CardPixelBudget, type ImageTransform } from '../images/decode-image.ts';
import { AVATAR_DECORATION_SCALE } from '../layout/card-layout.ts';
import { accentColor } from '../paint/palette.ts';
import { softening } from '../paint/soften.ts';
import type { CardInput } from '../profile/card-profile.ts';
import { cardContext, renderCard } from '../render-card.ts';
import { buildScene, type Scene } from '../scene.ts';
import { layoutSteps, type RenderStep } from '../steps/render-steps.ts';
import { type AnimatedSource, checkAnimation } from '../images/decode-animation.ts';
import { type CardAnimationFormat, encodeAnimation } from './encode-animation.ts';
import { ANIMATION_CAPS, mergeTimelines, type Timeline } from './timeline.ts';

/** A card as encoded bytes: animated (WebP or GIF) when a layer moves, else the still PNG. */
export type RenderedAnimatedCard = {
  bytes: Buffer;
  width: number;
  height: number;
  /** Milliseconds spent decoding (all frames), drawing every frame, and encoding. */
  timings: { prepare: number; draw: number; encode: number };
  warnings: string[];
  /** The card's accent, `#rrggbb`, as `renderCard` answers it. */
  accentColor: string;
} & ({ animated: true; format: CardAnimationFormat; frames: number; delaysMs: number[] } | { animated: false; format: 'png'; frames: 1; delaysMs: [] });

export interface AnimatedCardOptions {
  format: CardAnimationFormat;
  /**
   * The most bytes the animation may take (default ANIMATION_CAPS.maxBytes, 4 MiB); over it, the
   * card is drawn again with half the frames. A caller with a smaller upload limit sets less.
   */
  maxBytes?: number | undefined;
}

/** The layers that can move, each with the source that moves it. */
interface MovingLayers {
  background?: AnimatedSource | undefined;
  avatar?: AnimatedSource | undefined;
  decoration?: AnimatedSource | undefined;
}

/**
 * Draws a card that moves when its background photo, avatar or avatar decoration does (GIF,
 * animated WebP or APNG sources, read by libvips only: images/decode-animation.ts and
 * images/decode-apng.ts), as animated WebP or
 * GIF. A card where nothing moves is the still card, exactly `renderCard`'s PNG, with
 * `animated: false`: no source moves, or every frame drawn came out alike (the encoded file has one
 * frame). `frames` and `delaysMs` are those of the encoded file. The static layers are drawn once; each frame composites only what moves
 * between them, in the card's step order (docs/card-design.md "Animated cards").
 */
export async function renderAnimatedCard(input: CardInput, options: AnimatedCardOptions): Promise<RenderedAnimatedCard> {
  prepareCardFonts();
  const started = performance.now();
  const budget = new CardPixelBudget();
  const scene = await buildScene(input, budget);
  const warnings = [...scene.warnings];
  const moving = await readMovingLayers(input, scene, budget, warnings);
  const sources = [moving.background, moving.avatar, moving.decoration].filter((source) => source !== undefined);
  if (sources.length === 0) return stillCard(input, warnings);
  const prepared = performance.now();

  const width = scene.frame.width * scene.scale;
  const height = scene.frame.height * scene.scale;
  // Only the static layers draw text (the moving steps are the background and the avatar), in the family their contexts carry.
  const layers = staticLayers(scene, moving);
  let maxFrames = Math.min(ANIMATION_CAPS.maxFrames, Math.floor(ANIMATION_CAPS.maxOutputPixels / (width * height)));
  // Drawing the static layers once counts as drawing.
  let draw = performance.now() - prepared;
  let encode = 0;
  for (;;) {
    const drawStarted = performance.now();
    const timeline = mergeTimelines(
      sources.map((source) => source.delaysMs),
      { maxFrames, stepMs: options.format === 'gif' ? 10 : 1 },
    );
    const pixels = drawFrames(scene, moving, layers, timeline);
    const encodeStarted = performance.now();
    const encoded = await encodeAnimation(pixels, { width, height, delaysMs: timeline.delaysMs, format: options.format });
    draw += encodeStarted - drawStarted;
    encode += performance.now() - encodeStarted;
    // Too many bytes: the same loop with half the frames (sampled again from the sources' times);
    // still too many at two frames, the still card (under the cap by construction: card-bytes.ts),
    // so no answer can pass the cap, nor Discord's upload limit.
    if (encoded.bytes.length > (options.maxBytes ?? ANIMATION_CAPS.maxBytes)) {
      if (timeline.delaysMs.length > 2) {
        maxFrames = Math.ceil(timeline.delaysMs.length / 2);
        continue;
      }
      return stillCard(input, [...warnings, `the animation took ${encoded.bytes.length} bytes even with 2 frames, over the ${options.maxBytes ?? ANIMATION_CAPS.maxBytes}-byte cap: the still card instead`]);
    }
    // Every frame drawn alike (a source whose frames are all the same picture): the encoder kept
    // one, so nothing moves in the file, and the answer is the still card, as when nothing moves.
    if (encoded.frames < 2) return stillCard(input, warnings);
    // The frames and delays of the file, which the encoder may have merged, not of the timeline.
    return { animated: true, format: options.format, bytes: encoded.bytes, frames: encoded.frames, delaysMs: encoded.delaysMs, width, height, timings: { prepare: prepared - started, draw, encode }, warnings, accentColor: accentColor(scene.palette) };
  }
}

/** The still card itself, so its bytes never differ from `renderCard`'s; the warnings include a moving layer that failed. */
async function stillCard(input: CardInput, warnings: string[]): Promise<RenderedAnimatedCard> {
  const still = await renderCard(input);
  const { draw, encode, prepare } = still.timings;
  return { animated: false, format: 'png', bytes: still.png, frames: 1, delaysMs: [], width: still.width, height: still.height, timings: { prepare, draw, encode }, warnings, accentColor: still.accentColor };
}

/**
 * The moving sources, checked in a fixed order (background, avatar, decoration) so the budget is
 * charged the same way every time, then decoded side by side. Only images whose first frame the
 * still card drew are read; one that fails leaves its layer still, with a warning (in that same
 * order), as a damaged profile image does.
 */
async function readMovingLayers(input: CardInput, scene: Scene, budget: CardPixelBudget, warnings: string[]): Promise<MovingLayers> {
  const failed = (error: unknown) => {
    if (!(error instanceof CardImageError)) throw error;
    return { warning: error.message };
  };
  const check = async (bytes: Buffer | undefined, field: string, transform: ImageTransform, drawnPixels: number): Promise<() => Promise<{ source?: AnimatedSource; warning?: string }>> => {
    if (!bytes) return () => Promise.resolve({});
    try {
      const decode = await checkAnimation(bytes, { field, budget, transform, drawnPixels });
      return async () => (decode ? decode().then((source) => ({ source }), failed) : {});
    } catch (error) {
      const outcome = failed(error);
      return () => Promise.resolve(outcome);
    }
  };
  const softness = input.options.moreBackgroundBlur ? 'strong' : 'soft';
  const small = softening({ softness, width: scene.frame.width * scene.scale, height: scene.frame.height * scene.scale });
  const backgroundField = input.images?.background ? 'customBackground' : 'banner';
  const avatarSide = Math.round(scene.avatar.box.radius * 2 * scene.scale);
  const decorationSide = Math.round(avatarSide * AVATAR_DECORATION_SCALE);
  const square = (side: number): ImageTransform => (image) => image.resize(side, side, { fit: 'outside', withoutEnlargement: true });
  const pending = [
    await check(scene.backgroundPhoto, backgroundField, small.transform, small.width * small.height),
    await check(scene.avatarPhoto, input.images?.avatar ? 'customAvatar' : 'avatar', square(avatarSide), avatarSide * avatarSide),
    await check(scene.avatar.decoration ? input.profile.avatarDecoration : undefined, 'avatarDecoration', square(decorationSide), decorationSide * decorationSide),
  ];
  const [background, avatar, decoration] = await Promise.all(pending.map((decode) => decode()));
  for (const outcome of [background, avatar, decoration]) if (outcome?.warning !== undefined) warnings.push(outcome.warning);
  return { background: background?.source, avatar: avatar?.source, decoration: decoration?.source };
}

/** A run of the card's steps: drawn once onto a layer when nothing in it moves, else every frame. */
type Layer = { moving: false; canvas: Canvas } | { moving: true; step: RenderStep };

/**
 * The card's steps, in order, cut where a moving step is: each run of static steps is drawn once on
 * a transparent layer of the card's size (compositing it later gives what drawing its steps there
 * would, up to rounding). The moving steps are the background and the avatar (which holds the
 * decoration). When the background moves, the legibility step measures on a backdrop of its
 * worst case instead of a frame: every frame's lightest pixel (darkest, for dark text) under the
 * veil and panel, so the text stays legible on every frame.
 */
function staticLayers(scene: Scene, moving: MovingLayers): Layer[] {
  const movingSteps = new Set<string>();
  if (moving.background) movingSteps.add('background');
  if (moving.avatar || moving.decoration) movingSteps.add('avatar');
  const layers: Layer[] = [];
  let current: CanvasRenderingContext2D | undefined;
  let measured = { ...scene, legibilityBackdrop: moving.background ? worstBackdrop(scene, moving.background).getContext('2d') : undefined };
  for (const step of layoutSteps(scene.layout).steps) {
    if (movingSteps.has(step.name)) {
      layers.push({ moving: true, step });
      current = undefined;
      continue;
    }
    if (!current) {
      const canvas = createCanvas(scene.frame.width * scene.scale, scene.frame.height * scene.scale);
      current = cardContext(canvas, scene, { clipToCard: true });
      layers.push({ moving: false, canvas });
    }
    current.save();
    step.draw(current, measured);
    current.restore();
    // The backdrop follows the card up to the text: the veil and panel drawn over the worst case.
    if (measured.legibilityBackdrop && step.name !== 'legibility') step.draw(measured.legibilityBackdrop, measured);
    if (step.name === 'legibility') measured = { ...measured, legibilityBackdrop: undefined };
  }
  return layers;
}

/**
 * The background's frames merged per pixel into the hardest one to read the card's text on, at the
 * frames' own (small, softened) size, then drawn as the background step draws a frame.
 */
function worstBackdrop(scene: Scene, background: AnimatedSource): Canvas {
  const [first] = background.frames;
  const merged = createCanvas(first?.width ?? 1, first?.height ?? 1);
  const mergedContext = merged.getContext('2d');
  for (const [index, frame] of background.frames.entries()) {
    mergedContext.globalCompositeOperation = index === 0 ? 'source-over' : scene.ground === 'dark' ? 'lighten' : 'darken';
    mergedContext.drawImage(frame, 0, 0);
  }
  const canvas = createCanvas(scene.frame.width * scene.scale, scene.frame.height * scene.scale);
  cardContext(canvas, scene, { clipToCard: true }).drawImage(merged, 0, 0, scene.frame.width, scene.frame.height);
  return canvas;
}

/** Every frame of the timeline, drawn and stacked top to bottom as straight-alpha RGBA (libvips' "toilet roll"). */
function drawFrames(scene: Scene, moving: MovingLayers, layers: readonly Layer[], timeline: Timeline): Buffer {
  const width = scene.frame.width * scene.scale;
  const height = scene.frame.height * scene.scale;
  // The moving sources in the order the timeline was merged in (renderAnimatedCard).
  const merged = [moving.background, moving.avatar, moving.decoration].filter((source) => source !== undefined);
  const pixels = Buffer.alloc(width * height * 4 * timeline.sourceFrames.length);
  for (const [frameIndex, shown] of timeline.sourceFrames.entries()) {
    const frameOf = (layer: AnimatedSource | undefined) => (layer ? layer.frames[shown[merged.indexOf(layer)] ?? 0] : undefined);
    const frameScene: Scene = {
      ...scene,
      background: frameOf(moving.background) ?? scene.background,
      avatar: { ...scene.avatar, image: frameOf(moving.avatar) ?? scene.avatar.image, decoration: frameOf(moving.decoration) ?? scene.avatar.decoration },
    };
    // A new canvas each frame: clearing one under the card's antialiased clip would leave its corners' edge pixels half cleared.
    const context = cardContext(createCanvas(width, height), scene, { clipToCard: true });
    for (const layer of layers) {
      context.save();
      if (layer.moving) layer.step.draw(context, frameScene);
      else context.drawImage(layer.canvas, 0, 0, scene.frame.width, scene.frame.height);
      context.restore();
    }
    const frame = context.getImageData(0, 0, width, height).data;
    pixels.set(frame, frameIndex * frame.length);
  }
  return pixels;
}
