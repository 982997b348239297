import { CARD } from '../layout/card-layout.ts';
import type { RenderStep } from './render-step.ts';

/** The prepared background (photo or generated art), already at the card's pixel size. */
export const backgroundStep: RenderStep = {
  name: 'background',
  draw(context, scene) {
    context.drawImage(scene.background, 0, 0, CARD.width, CARD.height);
  },
};
