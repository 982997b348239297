import type { CanvasRenderingContext2D } from 'canvas';
import { rgba } from '../color/color.ts';
import { SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { GROUND_COLOR } from '../legibility/ground.ts';
import { MIN_TEXT_SIZE, SERVER_TAG, TEXT_COLUMN } from '../layout/card-layout.ts';
import { drawPlacedTexts, layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { WELCOME_TEXT_COLUMN } from '../layout/welcome-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import { measureText, type TextStyle } from '../text/rich-text.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from './render-steps.ts';
import { textBlockLayout } from './text.ts';
import { welcomeTextLayout } from './welcome-text.ts';

/**
 * The server tag Discord shows beside a member's name (`primary_guild`): a small pill with the
 * server's badge and its tag of at most 4 characters. Its text is a placed run, so the legibility
 * step measures it with the others, and the pill under it is the ground's own colour, which only
 * adds contrast.
 */

/** Inter's cap height as a share of the size: the tag's capitals centred in the pill. */
const CAP_HEIGHT = 0.73;
const ROLE = 'server tag';

const tagStyle = (scene: Scene): TextStyle => ({ size: MIN_TEXT_SIZE, weight: 800, color: scene.textColors.value });

const badgeRoom = (scene: Scene) => (scene.serverTag?.badge ? SERVER_TAG.badgeSize + SERVER_TAG.badgeGap : 0);

const serverTagLayout = {
  /** The pill's width; 0 without a tag. */
  width(context: CanvasRenderingContext2D, scene: Scene): number {
    if (!scene.serverTag) return 0;
    return SERVER_TAG.padX * 2 + badgeRoom(scene) + measureText(context, scene.serverTag.tag, tagStyle(scene));
  },
  /** The tag's text run, in a pill starting at `x` and centred on `middle`. */
  placed(context: CanvasRenderingContext2D, scene: Scene, x: number, middle: number): PlacedText[] {
    if (!scene.serverTag) return [];
    const style = tagStyle(scene);
    const width = measureText(context, scene.serverTag.tag, style);
    return [{ role: ROLE, text: scene.serverTag.tag, x: x + SERVER_TAG.padX + badgeRoom(scene), baseline: middle + (style.size * CAP_HEIGHT) / 2, width, style, minContrast: SMALL_TEXT_CONTRAST }];
  },
};

/** The pill and badge under the placed tag run (drawn before the texts, so the tag lies on top). */
function serverTagPillStep(context: CanvasRenderingContext2D, scene: Scene, placed: readonly PlacedText[]): void {
  const run = placed.find((candidate) => candidate.role === ROLE);
  if (!run || !scene.serverTag) return;
  const middle = run.baseline - (run.style.size * CAP_HEIGHT) / 2;
  const left = run.x - SERVER_TAG.padX - badgeRoom(scene);
  const top = middle - SERVER_TAG.height / 2;
  roundedRectPath(context, left, top, run.width + SERVER_TAG.padX * 2 + badgeRoom(scene), SERVER_TAG.height, SERVER_TAG.radius);
  context.fillStyle = rgba(GROUND_COLOR[scene.ground], 0.55);
  context.fill();
  context.lineWidth = 1;
  context.strokeStyle = scene.ground === 'dark' ? 'rgba(255, 255, 255, 0.22)' : 'rgba(0, 0, 0, 0.18)';
  context.stroke();
  const badge = scene.serverTag.badge;
  if (badge) context.drawImage(badge, left + SERVER_TAG.padX, middle - SERVER_TAG.badgeSize / 2, SERVER_TAG.badgeSize, SERVER_TAG.badgeSize);
}

/**
 * Where the tag pill goes: after the `@username` line (after the name's last line when there is
 * none), so the name's own fitting is left alone and a name line never gives way to it. A pill that
 * would pass the text column's right edge is left out (the tag is decoration; the name and the
 * line it follows are not).
 */
function serverTagAfter(texts: (context: CanvasRenderingContext2D, scene: Scene) => { placed: PlacedText[] }, right: number) {
  return layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
    if (!scene.serverTag) return [];
    const { placed } = texts(context, scene);
    const anchor = placed.find((run) => run.role === 'tag') ?? placed.findLast((run) => run.role === 'name');
    if (!anchor) return [];
    const x = anchor.x + anchor.width + SERVER_TAG.gap;
    if (x + serverTagLayout.width(context, scene) > right) return [];
    return serverTagLayout.placed(context, scene, x, anchor.baseline - (anchor.style.size * CAP_HEIGHT) / 2);
  });
}

/** The profile layout's tag pill, after its `@username` line. */
export const profileServerTagLayout = serverTagAfter(textBlockLayout, TEXT_COLUMN.right);
/** The welcome layout's tag pill, after its `@username` (beside the name, or on its own line). */
export const welcomeServerTagLayout = serverTagAfter(welcomeTextLayout, WELCOME_TEXT_COLUMN.right);

/** Draws a layout's tag pill and its text, after the layout's text. */
export function serverTagStepFor(layout: (context: CanvasRenderingContext2D, scene: Scene) => PlacedText[]): RenderStep {
  return {
    name: 'server tag',
    draw(context, scene) {
      const placed = layout(context, scene);
      if (placed.length === 0) return;
      serverTagPillStep(context, scene, placed);
      drawPlacedTexts(context, placed, scene.textColors.shadow);
    },
  };
}
