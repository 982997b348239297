import type { CanvasRenderingContext2D } from 'canvas';
import { DATE, TEXT_COLUMN } from '../layout/card-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import { drawText, fitText } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

const COLOR = 'rgba(255, 255, 255, 0.66)';
const ICON_GAP = 7;

/** The account creation date with a calendar mark, or `customDate` as given, at the bottom right. */
export const dateStep: RenderStep = {
  name: 'date',
  draw(context, scene) {
    const room = (TEXT_COLUMN.right - TEXT_COLUMN.left) / 2;
    const fitted = fitText(context, scene.date.text, { size: DATE.size, weight: 600, color: COLOR }, room, 11);
    const left = TEXT_COLUMN.right - fitted.width;
    if (!scene.date.custom) {
      const iconSize = fitted.style.size;
      drawCalendarIcon(context, left - ICON_GAP - iconSize, DATE.baseline - iconSize * 0.92, iconSize, COLOR);
    }
    drawText(context, fitted.text, left, DATE.baseline, fitted.style);
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
