import { avatarStep } from './avatar.ts';
import { backgroundStep } from './background.ts';
import { badgesStep } from './badges.ts';
import { borderStep } from './border.ts';
import { dateStep } from './date.ts';
import { overlayStep } from './overlay.ts';
import { presenceStep } from './presence.ts';
import { rankBarStep } from './rank-bar.ts';
import type { RenderStep } from './render-step.ts';
import { textStep } from './text.ts';

/** The card, bottom layer first. */
export const RENDER_STEPS: readonly RenderStep[] = [
  backgroundStep,
  overlayStep,
  avatarStep,
  presenceStep,
  textStep,
  badgesStep,
  rankBarStep,
  dateStep,
  borderStep,
];
