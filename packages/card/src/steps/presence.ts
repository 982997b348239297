import type { PresenceStatus } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { AVATAR, PRESENCE } from '../layout/card-layout.ts';
import { circlePath, roundedRectPath } from '../paint/shapes.ts';
import type { RenderStep } from './render-steps.ts';

/** The hole around the dot: the panel's dark tone, so the dot reads on any avatar. */
const CUTOUT_COLOR = '#15171f';

export const presenceStep: RenderStep = {
  name: 'presence',
  draw(context, scene) {
    if (!scene.presence) return;
    // On a circle the dot sits on the rim at 45°; on a square it tucks into the corner.
    const offset = scene.avatar.square ? AVATAR.radius - PRESENCE.radius * 0.55 : AVATAR.radius * Math.cos(PRESENCE.angle);
    const x = AVATAR.centerX + offset;
    const y = AVATAR.centerY + offset;
    circlePath(context, x, y, PRESENCE.radius + PRESENCE.cutout);
    context.fillStyle = CUTOUT_COLOR;
    context.fill();
    drawPresenceIcon(context, scene.presence, x, y, PRESENCE.radius);
  },
};

const PRESENCE_COLORS: Record<PresenceStatus, string> = { online: '#23a55a', idle: '#f0b232', dnd: '#f23f43', offline: '#80848e' };

/**
 * Status marks in our own shapes: a full dot (online), a crescent (idle), a dot with a bar (do
 * not disturb) and a ring (offline). Holes are cut with destination-out so the layer beneath
 * (the avatar's cut-out ring) shows through, as a real hole would.
 */
function drawPresenceIcon(context: CanvasRenderingContext2D, status: PresenceStatus, centerX: number, centerY: number, radius: number): void {
  context.save();
  circlePath(context, centerX, centerY, radius);
  context.fillStyle = PRESENCE_COLORS[status];
  context.fill();
  context.fillStyle = CUTOUT_COLOR;
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
