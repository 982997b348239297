import { drawPresenceIcon } from '../icons/presence-icons.ts';
import { AVATAR, PRESENCE } from '../layout/card-layout.ts';
import { circlePath } from '../paint/shapes.ts';
import type { RenderStep } from './render-step.ts';

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
    drawPresenceIcon(context, scene.presence, x, y, PRESENCE.radius, CUTOUT_COLOR);
  },
};
