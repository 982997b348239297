import { drawBadgeIcon } from '../icons/badge-icons.ts';
import { BADGES } from '../layout/card-layout.ts';
import { containRect, roundedRectPath } from '../paint/shapes.ts';
import type { RenderStep } from './render-steps.ts';

/** Badges in a row ending at the layout's badge edge (the text column's right edge on 3:1 cards), optionally on a translucent pill. */
export const badgesStep: RenderStep = {
  name: 'badges',
  draw(context, scene) {
    if (scene.badges.length === 0) return;
    const padding = scene.badgesFrame ? BADGES.framePadding : 0;
    const left = scene.badgesRight - scene.badgesWidth;
    if (scene.badgesFrame) {
      const height = BADGES.size + padding * 2;
      roundedRectPath(context, left, BADGES.top - padding, scene.badgesWidth, height, height / 2);
      context.fillStyle = 'rgba(0, 0, 0, 0.38)';
      context.fill();
      context.lineWidth = 1;
      context.strokeStyle = 'rgba(255, 255, 255, 0.14)';
      context.stroke();
    }
    let x = left + padding;
    for (const badge of scene.badges) {
      if (badge.kind === 'profile') {
        drawBadgeIcon(context, badge.badge, x, BADGES.top, BADGES.size);
      } else {
        const box = containRect(badge.image.width, badge.image.height, { x, y: BADGES.top, width: BADGES.size, height: BADGES.size });
        context.drawImage(badge.image, box.x, box.y, box.width, box.height);
      }
      x += BADGES.size + BADGES.gap;
    }
  },
};
