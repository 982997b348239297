import { BORDER, CARD } from '../layout/card-layout.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import type { RenderStep } from './render-step.ts';

export const borderStep: RenderStep = {
  name: 'border',
  draw(context, scene) {
    if (!scene.border) return;
    const inset = BORDER.width / 2;
    roundedRectPath(context, inset, inset, CARD.width - BORDER.width, CARD.height - BORDER.width, CARD.radius - inset);
    context.lineWidth = BORDER.width;
    context.strokeStyle = scene.border;
    context.stroke();
  },
};
