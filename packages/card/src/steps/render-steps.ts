import type { CardLayout } from '@utility-api/render-jobs';
import type { CanvasRenderingContext2D } from 'canvas';
import { BORDER, CARD, PANEL } from '../layout/card-layout.ts';
import { roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { avatarStep } from './avatar.ts';
import { badgesStep } from './badges.ts';
import { dateStep } from './date.ts';
import { presenceStep } from './presence.ts';
import { rankBarStep } from './rank-bar.ts';
import { textStep } from './text.ts';
import { welcomeTextStep } from './welcome-text.ts';

/** One layer of the card. Steps run in order, each on the same context in 1x coordinates. */
export interface RenderStep {
  name: string;
  draw(context: CanvasRenderingContext2D, scene: Scene): void;
}

/** The prepared background (photo or generated art), already at the card's pixel size. */
const backgroundStep: RenderStep = {
  name: 'background',
  draw(context, scene) {
    context.drawImage(scene.background, 0, 0, CARD.width, CARD.height);
  },
};

/** The brightness veil over the whole background, then the frosted panel the content sits on. */
const overlayStep: RenderStep = {
  name: 'overlay',
  draw(context, scene) {
    if (scene.veilAlpha > 0) {
      context.fillStyle = `rgba(0, 0, 0, ${scene.veilAlpha})`;
      context.fillRect(0, 0, CARD.width, CARD.height);
    }
    roundedRectPath(context, PANEL.x, PANEL.y, PANEL.width, PANEL.height, PANEL.radius);
    context.fillStyle = withStops(context.createLinearGradient(PANEL.x, 0, PANEL.x + PANEL.width, 0), [[0, 'rgba(8, 10, 18, 0.50)'], [1, 'rgba(8, 10, 18, 0.30)']]);
    context.fill();
    context.lineWidth = 1;
    context.strokeStyle = 'rgba(255, 255, 255, 0.10)';
    context.stroke();
  },
};

const borderStep: RenderStep = {
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

/** The card, bottom layer first. */
export const RENDER_STEPS: readonly RenderStep[] = [backgroundStep, overlayStep, avatarStep, presenceStep, textStep, badgesStep, rankBarStep, dateStep, borderStep];

/**
 * The welcome layout: the same layers with the centred welcome text instead of the name block, and
 * no rank block (`rankData` is not shown in this layout; docs/card-design.md).
 */
const WELCOME_STEPS: readonly RenderStep[] = [backgroundStep, overlayStep, avatarStep, presenceStep, welcomeTextStep, badgesStep, dateStep, borderStep];

/** The steps that draw a card of this layout, bottom layer first. */
export function layoutSteps(layout: CardLayout): readonly RenderStep[] {
  return layout === 'welcome' ? WELCOME_STEPS : RENDER_STEPS;
}
