import { drawCalendarIcon } from '../icons/calendar-icon.ts';
import { DATE, TEXT_COLUMN } from '../layout/card-layout.ts';
import { drawText, fitText } from '../text/rich-text.ts';
import type { RenderStep } from './render-step.ts';

const COLOR = 'rgba(255, 255, 255, 0.66)';
const ICON_GAP = 7;

/** The account creation date with a calendar mark, or `customDate` as given, at the bottom right. */
export const dateStep: RenderStep = {
  name: 'date',
  draw(context, scene) {
    const room = (TEXT_COLUMN.right - TEXT_COLUMN.left) / 2;
    const fitted = fitText(context, scene.date.text, { size: DATE.size, weight: 600, color: COLOR }, room, 11);
    const left = TEXT_COLUMN.right - fitted.width;
    if (!scene.date.custom) {
      const iconSize = fitted.style.size;
      drawCalendarIcon(context, left - ICON_GAP - iconSize, DATE.baseline - iconSize * 0.92, iconSize, COLOR);
    }
    drawText(context, fitted.text, left, DATE.baseline, fitted.style);
  },
};
