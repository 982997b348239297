import type { Rgb } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { rgba } from '../color/color.ts';
import { textBounds, textColor, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath, type Rect } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from '../steps/render-steps.ts';
import { contrastRatio, needsDarkGround, relativeLuminance } from './contrast.ts';
import { GROUND_COLOR } from './ground.ts';
import { luminanceQuantileOffset } from './luminance-quantile.ts';

/**
 * Text is only as legible as what is behind it, and a photo can be anything: white, black, busy.
 * So before any text is drawn, this step reads the pixels behind every run of text (after the
 * background, the veil and the panel) and darkens the panel (lightens, on a light ground) just as
 * much as the least legible run needs to reach its contrast (4.5:1 for small text, 3:1 for the
 * name). A run whose color wants the other ground (a light tag beside a dark name) or that is still
 * short gets a pill of its own ground behind it. Cards on ordinary dark photos get nothing. On the
 * glass panel (`panel: "glass"`) the panel stays as it is and every run that is short gets its
 * pill, a scrim just behind that text, so the photo stays visible everywhere else.
 */

/** The share of pixels behind a run allowed to be lighter (darker) than the one measured: stray sparkles. */
const IGNORED_SHARE = 0.01;
/** Aim a little above each target: antialiased glyph edges and PNG rounding must not land under it. */
const MARGIN = 0.25;
/** Horizontal padding stays under the gaps between runs (LEVEL and its number are 8 px apart), so a pill never covers a neighbour. */
const PILL = { padX: 5, padY: 4, radius: 8 } as const;

/**
 * The pixel behind `box` that is hardest to read light text on (the lightest) or dark text on (the
 * darkest), ignoring the most extreme IGNORED_SHARE.
 */
export function worstPixel(context: CanvasRenderingContext2D, box: Rect, scale: number, lightText: boolean): Rgb {
  const x = Math.max(0, Math.floor(box.x * scale));
  const y = Math.max(0, Math.floor(box.y * scale));
  const width = Math.max(1, Math.ceil(box.width * scale));
  const height = Math.max(1, Math.ceil(box.height * scale));
  const { data } = context.getImageData(x, y, width, height);
  // Every other pixel each way is plenty to find the lightest part of a photo behind 16 px text.
  const offset = luminanceQuantileOffset(data, width, height, 2 * scale, lightText, IGNORED_SHARE);
  return { r: data[offset] ?? 0, g: data[offset + 1] ?? 0, b: data[offset + 2] ?? 0 };
}

/** `color` under `ground` painted at `alpha`, as cairo composites it (in sRGB values). */
function under(color: Rgb, ground: Rgb, alpha: number): Rgb {
  return { r: color.r + (ground.r - color.r) * alpha, g: color.g + (ground.g - color.g) * alpha, b: color.b + (ground.b - color.b) * alpha };
}

/** The least opacity of `ground` over `behind` that gives `text` the contrast `target` (1 if none does). */
export function alphaNeeded(behind: Rgb, text: Rgb, ground: Rgb, target: number): number {
  const textLuminance = relativeLuminance(text);
  const reaches = (alpha: number) => contrastRatio(relativeLuminance(under(behind, ground, alpha)), textLuminance) >= target;
  if (reaches(0)) return 0;
  if (!reaches(1)) return 1;
  let [low, high] = [0, 1];
  for (let iteration = 0; iteration < 12; iteration += 1) {
    const middle = (low + high) / 2;
    if (reaches(middle)) high = middle;
    else low = middle;
  }
  return high;
}

interface MeasuredRun {
  run: PlacedText;
  box: Rect;
  color: Rgb;
  behind: Rgb;
  target: number;
  wantsDark: boolean;
}

export function legibilityStepFor(textRuns: (context: CanvasRenderingContext2D, scene: Scene) => PlacedText[]): RenderStep {
  return {
    name: 'legibility',
    draw(context, scene) {
      const runs: MeasuredRun[] = textRuns(context, scene).map((run) => {
        const color = textColor(run);
        const wantsDark = needsDarkGround(color);
        const box = textBounds(run);
        return { run, box, color, wantsDark, target: run.minContrast + MARGIN, behind: worstPixel(scene.legibilityBackdrop ?? context, box, scene.scale, wantsDark) };
      });
      const panelGround = GROUND_COLOR[scene.ground];
      const onPanelGround = runs.filter((measured) => measured.wantsDark === (scene.ground === 'dark'));
      // The glass panel is never darkened as a whole (the photo behind it is the point): every
      // text that needs it gets its own scrim below instead.
      const panelAlpha = scene.panel === 'glass' ? 0 : Math.max(0, ...onPanelGround.map((measured) => alphaNeeded(measured.behind, measured.color, panelGround, measured.target)));
      if (panelAlpha > 0) {
        const { panel } = scene.frame;
        roundedRectPath(context, panel.x, panel.y, panel.width, panel.height, panel.radius);
        context.fillStyle = rgba(panelGround, panelAlpha);
        context.fill();
      }
      for (const measured of runs) {
        const ground = GROUND_COLOR[measured.wantsDark ? 'dark' : 'light'];
        const alpha = alphaNeeded(under(measured.behind, panelGround, panelAlpha), measured.color, ground, measured.target);
        if (alpha === 0) continue;
        const { box } = measured;
        roundedRectPath(context, box.x - PILL.padX, box.y - PILL.padY, box.width + PILL.padX * 2, box.height + PILL.padY * 2, PILL.radius);
        context.fillStyle = rgba(ground, alpha);
        context.fill();
      }
    },
  };
}
