import type { PresenceStatus } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { circlePath, roundedRectPath } from '../paint/shapes.ts';

export const PRESENCE_COLORS: Record<PresenceStatus, string> = {
  online: '#23a55a',
  idle: '#f0b232',
  dnd: '#f23f43',
  offline: '#80848e',
};

/**
 * Status marks in our own shapes: a full dot (online), a crescent (idle), a dot with a bar (do
 * not disturb) and a ring (offline). Holes are cut with destination-out so the layer beneath
 * (the avatar's cut-out ring) shows through, as a real hole would.
 */
export function drawPresenceIcon(
  context: CanvasRenderingContext2D,
  status: PresenceStatus,
  centerX: number,
  centerY: number,
  radius: number,
  holeColor: string,
): void {
  context.save();
  circlePath(context, centerX, centerY, radius);
  context.fillStyle = PRESENCE_COLORS[status];
  context.fill();
  context.fillStyle = holeColor;
  if (status === 'idle') {
    circlePath(context, centerX - radius * 0.42, centerY - radius * 0.42, radius * 0.62);
    context.fill();
  } else if (status === 'dnd') {
    roundedRectPath(context, centerX - radius * 0.55, centerY - radius * 0.16, radius * 1.1, radius * 0.32, radius * 0.16);
    context.fill();
  } else if (status === 'offline') {
    circlePath(context, centerX, centerY, radius * 0.45);
    context.fill();
  }
  context.restore();
}
