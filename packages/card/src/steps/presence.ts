import type { PresenceStatus } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { PRESENCE } from '../layout/card-layout.ts';
import { circlePath, roundedRectPath } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';

const PRESENCE_COLORS: Record<PresenceStatus, string> = { online: '#23a55a', idle: '#f0b232', dnd: '#f23f43', offline: '#80848e' };

/**
 * The status mark, cut into the avatar's layer as Discord does: a hole around the dot (so the
 * panel beneath shows, whatever its tone), then the mark in our own shapes: a full dot (online), a
 * crescent (idle), a dot with a bar (do not disturb) and a ring (offline), their inner holes cut
 * the same way.
 */
export function cutPresence(context: CanvasRenderingContext2D, scene: Scene): void {
  const status = scene.presence;
  if (!status) return;
  // On a circle the dot sits on the rim at 45°; on a square it tucks into the corner.
  const box = scene.avatar.box;
  const offset = scene.avatar.square ? box.radius - PRESENCE.radius * 0.55 : box.radius * Math.cos(PRESENCE.angle);
  const x = box.centerX + offset;
  const y = box.centerY + offset;
  const radius = PRESENCE.radius;
  context.save();
  context.globalCompositeOperation = 'destination-out';
  circlePath(context, x, y, radius + PRESENCE.cutout);
  context.fill();
  context.globalCompositeOperation = 'source-over';
  circlePath(context, x, y, radius);
  context.fillStyle = PRESENCE_COLORS[status];
  context.fill();
  context.globalCompositeOperation = 'destination-out';
  if (status === 'idle') {
    circlePath(context, x - radius * 0.42, y - radius * 0.42, radius * 0.62);
    context.fill();
  } else if (status === 'dnd') {
    roundedRectPath(context, x - radius * 0.55, y - radius * 0.16, radius * 1.1, radius * 0.32, radius * 0.16);
    context.fill();
  } else if (status === 'offline') {
    circlePath(context, x, y, radius * 0.45);
    context.fill();
  }
  context.restore();
}
