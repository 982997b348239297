import type { CardLayout } from '@utility-api/render-jobs';
import { type Canvas, createCanvas, type CanvasRenderingContext2D } from 'canvas';
import { staticLayerCache } from '../cache/card-caches.ts';
import { rgba } from '../color/color.ts';
import { GROUND_COLOR, PANEL_ALPHA } from '../legibility/ground.ts';
import { legibilityStepFor } from '../legibility/legibility-step.ts';
import { BORDER, type CardFrame } from '../layout/card-layout.ts';
import type { PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { avatarStep } from './avatar.ts';
import { badgesStep } from './badges.ts';
import { nameplateStepFor } from './nameplate.ts';
import { profileServerTagLayout, serverTagStepFor, welcomeServerTagLayout } from './server-tag.ts';
import { dateLayout, dateStep } from './date.ts';
import { rankBarStep, rankRowLayout } from './rank-bar.ts';
import { textBlockLayout, textStep } from './text.ts';
import { levelupTextLayout, levelupTextStep } from './levelup-text.ts';
import { welcomeTextLayout, welcomeTextStep } from './welcome-text.ts';
import { welcomeTallTextLayout, welcomeTallTextStep } from './welcome-tall-text.ts';

/** One layer of the card. Steps run in order, each on the same context in 1x coordinates. */
export interface RenderStep {
  name: string;
  draw(context: CanvasRenderingContext2D, scene: Scene): void;
}

/**
 * The prepared background (photo or generated art), already at the card's pixel size with the
 * frame's corners rounded. Copied rather than composited: the same pixels on an empty canvas, and
 * on a reused one (render-card.ts) it also replaces the previous card, transparent corners
 * included. An animated card's frames are drawn the same way onto new canvases under the card's clip.
 */
const backgroundStep: RenderStep = {
  name: 'background',
  draw(context, scene) {
    context.globalCompositeOperation = 'copy';
    context.drawImage(scene.background, 0, 0, scene.frame.width, scene.frame.height);
  },
};

/**
 * The frosted panel's fill (dark, or light for dark text), the same on every card of one ground
 * and scale: drawn once on a transparent card-sized layer and copied in 1:1 onto device pixels.
 * Copying gives the very pixels filling would (pixman multiplies the gradient by the edge coverage,
 * then composites, either way); the hairline edge is stroked on the card itself, because stroking
 * it on the layer would round its antialiased pixels differently (checked: off by one there).
 */
function panelFill(frame: CardFrame, ground: Scene['ground'], panel: Scene['panel'], scale: number): Canvas {
  const { panel: box } = frame;
  const key = `panel:${panel}:${ground}:${scale}:${frame.width}x${frame.height}`;
  const cached = staticLayerCache.get(key);
  if (cached) return cached.canvas;
  const canvas = createCanvas(frame.width * scale, frame.height * scale);
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  roundedRectPath(context, box.x, box.y, box.width, box.height, box.radius);
  const color = GROUND_COLOR[ground];
  const [leftAlpha, rightAlpha] = PANEL_ALPHA[panel][ground];
  context.fillStyle = withStops(context.createLinearGradient(box.x, 0, box.x + box.width, 0), [[0, rgba(color, leftAlpha)], [1, rgba(color, rightAlpha)]]);
  context.fill();
  staticLayerCache.set(key, { canvas });
  return canvas;
}

/** The brightness veil over the whole background, then the frosted panel the content sits on. */
const overlayStep: RenderStep = {
  name: 'overlay',
  draw(context, scene) {
    if (scene.veilAlpha > 0) {
      // Filled inside the card's outline, since a still card's context has no clip to cut the corners off.
      roundedRectPath(context, 0, 0, scene.frame.width, scene.frame.height, scene.frame.radius);
      context.fillStyle = `rgba(0, 0, 0, ${scene.veilAlpha})`;
      context.fill();
    }
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.drawImage(panelFill(scene.frame, scene.ground, scene.panel, scene.scale), 0, 0);
    context.restore();
    const { panel } = scene.frame;
    roundedRectPath(context, panel.x, panel.y, panel.width, panel.height, panel.radius);
    context.lineWidth = 1;
    context.strokeStyle = scene.ground === 'dark' ? 'rgba(255, 255, 255, 0.10)' : 'rgba(255, 255, 255, 0.35)';
    context.stroke();
  },
};

const borderStep: RenderStep = {
  name: 'border',
  draw(context, scene) {
    if (!scene.border) return;
    const inset = BORDER.width / 2;
    const { width, height, radius } = scene.frame;
    // The stroke's outer edge is the card's outline: clipped to it, the rim's antialiased pixels
    // fade as the background's corners do (stroked alone, the rim would be a shade more opaque).
    roundedRectPath(context, 0, 0, width, height, radius);
    context.clip();
    roundedRectPath(context, inset, inset, width - BORDER.width, height - BORDER.width, radius - inset);
    context.lineWidth = BORDER.width;
    context.strokeStyle = scene.border;
    context.stroke();
  },
};

/** Every text of the profile card where it will be drawn, in drawing order. */
function profileCardTexts(context: CanvasRenderingContext2D, scene: Scene): PlacedText[] {
  return [...textBlockLayout(context, scene).placed, ...profileServerTagLayout(context, scene), ...rankRowLayout(context, scene), ...dateLayout(context, scene)];
}

/** The card, bottom layer first. */
export const RENDER_STEPS: readonly RenderStep[] = [
  backgroundStep,
  overlayStep,
  nameplateStepFor(profileCardTexts),
  legibilityStepFor(profileCardTexts),
  avatarStep,
  textStep,
  serverTagStepFor(profileServerTagLayout),
  badgesStep,
  rankBarStep,
  dateStep,
  borderStep,
];

/** Every text of the welcome card where it will be drawn. */
function welcomeCardTexts(context: CanvasRenderingContext2D, scene: Scene): PlacedText[] {
  return [...welcomeTextLayout(context, scene).placed, ...welcomeServerTagLayout(context, scene), ...dateLayout(context, scene)];
}

/**
 * The welcome layout: the same layers with the centred welcome text instead of the name block, and
 * no rank block (`rankData` is not shown in this layout; docs/card-design.md).
 */
const WELCOME_STEPS: readonly RenderStep[] = [backgroundStep, overlayStep, nameplateStepFor(welcomeCardTexts), legibilityStepFor(welcomeCardTexts), avatarStep, welcomeTextStep, serverTagStepFor(welcomeServerTagLayout), badgesStep, dateStep, borderStep];

/**
 * The level-up layout: the avatar and the centred level-up text; no badges, date or rank bar, so
 * nothing competes with the levels (docs/card-design.md).
 */
const LEVELUP_STEPS: readonly RenderStep[] = [backgroundStep, overlayStep, legibilityStepFor(levelupTextLayout), avatarStep, levelupTextStep, borderStep];

/**
 * The tall welcome layout (16:9): the welcome card's layers around a centred avatar with the text
 * under it. No nameplate, server tag or date: the name is the hero on its own line, and a date
 * reads as random on a card about joining (docs/card-design.md).
 */
const WELCOME_TALL_STEPS: readonly RenderStep[] = [backgroundStep, overlayStep, legibilityStepFor(welcomeTallTextLayout), avatarStep, welcomeTallTextStep, badgesStep, borderStep];

type LayoutSteps = { steps: readonly RenderStep[]; texts: (context: CanvasRenderingContext2D, scene: Scene) => PlacedText[] };

const LAYOUT_STEPS: Readonly<Record<CardLayout, LayoutSteps>> = {
  profile: { steps: RENDER_STEPS, texts: profileCardTexts },
  welcome: { steps: WELCOME_STEPS, texts: welcomeCardTexts },
  levelup: { steps: LEVELUP_STEPS, texts: levelupTextLayout },
  'welcome-tall': { steps: WELCOME_TALL_STEPS, texts: welcomeTallTextLayout },
};

/** The steps that draw a card of this layout, bottom layer first, and where its texts go. */
export function layoutSteps(layout: CardLayout): LayoutSteps {
  return LAYOUT_STEPS[layout];
}
