import type { CanvasRenderingContext2D } from 'canvas';
import { SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { DATE, MIN_TEXT_SIZE, TEXT_COLUMN } from '../layout/card-layout.ts';
import { layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { drawText, fitText } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

const ICON_GAP = 8;

/** The date line, right-aligned at the bottom of the text column, with room for the calendar mark; none when the layout leaves it out. */
export const dateLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
  if (!scene.date.shown) return [];
  const iconRoom = scene.date.custom ? 0 : DATE.size + ICON_GAP;
  const fitted = fitText(context, scene.date.text, { size: DATE.size, weight: 600, color: scene.textColors.date }, TEXT_COLUMN.right - TEXT_COLUMN.left - iconRoom, MIN_TEXT_SIZE);
  return [{ role: 'date', text: fitted.text, x: TEXT_COLUMN.right - fitted.width, baseline: DATE.baseline, width: fitted.width, style: fitted.style, minContrast: SMALL_TEXT_CONTRAST }];
});

/** The account creation date with a calendar mark, or `customDate` as given, at the bottom right. */
export const dateStep: RenderStep = {
  name: 'date',
  draw(context, scene) {
    for (const run of dateLayout(context, scene)) {
      if (!scene.date.custom) {
        const iconSize = run.style.size;
        drawCalendarIcon(context, run.x - ICON_GAP - iconSize, DATE.baseline - iconSize * 0.92, iconSize, run.style.color);
      }
      drawText(context, run.text, run.x, run.baseline, run.style);
    }
  },
};

/** A small calendar mark drawn beside the creation date; `size` is its height. */
function drawCalendarIcon(context: CanvasRenderingContext2D, x: number, y: number, size: number, color: string): void {
  const u = (value: number) => (value / 16) * size;
  context.save();
  context.translate(x, y);
  context.strokeStyle = color;
  context.fillStyle = color;
  context.lineWidth = u(1.5);
  roundedRectPath(context, u(1.5), u(3), u(13), u(11.5), u(2.5));
  context.stroke();
  context.fillRect(u(1.5), u(5.5), u(13), u(1.5));
  context.lineCap = 'round';
  context.beginPath();
  context.moveTo(u(5), u(1.5));
  context.lineTo(u(5), u(4));
  context.moveTo(u(11), u(1.5));
  context.lineTo(u(11), u(4));
  context.stroke();
  context.restore();
}
