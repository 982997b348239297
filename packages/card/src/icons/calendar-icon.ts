import type { CanvasRenderingContext2D } from 'canvas';
import { roundedRectPath } from '../paint/shapes.ts';

/** A small calendar mark drawn beside the creation date; `size` is its height. */
export function drawCalendarIcon(context: CanvasRenderingContext2D, x: number, y: number, size: number, color: string): void {
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
