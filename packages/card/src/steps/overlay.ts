import { CARD, PANEL } from '../layout/card-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import type { RenderStep } from './render-step.ts';

/** The brightness veil over the whole background, then the frosted panel the content sits on. */
export const overlayStep: RenderStep = {
  name: 'overlay',
  draw(context, scene) {
    if (scene.veilAlpha > 0) {
      context.fillStyle = `rgba(0, 0, 0, ${scene.veilAlpha})`;
      context.fillRect(0, 0, CARD.width, CARD.height);
    }
    const shade = context.createLinearGradient(PANEL.x, 0, PANEL.x + PANEL.width, 0);
    shade.addColorStop(0, 'rgba(8, 10, 18, 0.50)');
    shade.addColorStop(1, 'rgba(8, 10, 18, 0.30)');
    roundedRectPath(context, PANEL.x, PANEL.y, PANEL.width, PANEL.height, PANEL.radius);
    context.fillStyle = shade;
    context.fill();
    context.lineWidth = 1;
    context.strokeStyle = 'rgba(255, 255, 255, 0.10)';
    context.stroke();
  },
};
