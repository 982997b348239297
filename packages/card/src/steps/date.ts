import type { CanvasRenderingContext2D } from 'canvas';
import { SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { DATE, MIN_TEXT_SIZE, TEXT_COLUMN } from '../layout/card-layout.ts';
import { layoutOncePerCard, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { familySpacing } from '../text/family-metrics.ts';
import { drawText, fitText } from '../text/rich-text.ts';
import type { RenderStep } from './render-steps.ts';

const ICON_GAP = 8;
/** Between the `joined` label and the date. */
const LABEL_GAP = 7;
/** Less room than this for the label and it is left out rather than cut to a stub ("Jo…"). */
const MIN_LABEL_ROOM = 60;

/**
 * The date line, right-aligned at the bottom of the text column: the creation date after its label
 * (`labels.joined`, "Joined Discord") and the calendar mark, or a `customDate` alone; none when the
 * layout leaves it out. The date fits first; the label takes what is left of the column.
 */
export const dateLayout = layoutOncePerCard((context: CanvasRenderingContext2D, scene: Scene): PlacedText[] => {
  if (!scene.date.shown) return [];
  const iconRoom = scene.date.custom ? 0 : DATE.size + ICON_GAP;
  const room = TEXT_COLUMN.right - TEXT_COLUMN.left - iconRoom;
  const fitted = fitText(context, scene.date.text, { size: DATE.size, weight: 600, color: scene.textColors.date }, room, MIN_TEXT_SIZE);
  const date: PlacedText = { role: 'date', text: fitted.text, x: TEXT_COLUMN.right - fitted.width, baseline: DATE.baseline, width: fitted.width, style: fitted.style, minContrast: SMALL_TEXT_CONTRAST };
  // A pixel face's word space is a whole em: the gap widens with it (family-metrics.ts).
  const labelGap = LABEL_GAP + familySpacing(scene.fontFamily).gapExtra;
  const labelRoom = room - fitted.width - labelGap;
  if (scene.date.custom || labelRoom < MIN_LABEL_ROOM) return [date];
  const label = fitText(context, scene.words.joined, { size: fitted.style.size, weight: 600, color: scene.textColors.label }, labelRoom, fitted.style.size);
  return [{ role: 'date label', text: label.text, x: date.x - labelGap - label.width, baseline: DATE.baseline, width: label.width, style: label.style, minContrast: SMALL_TEXT_CONTRAST }, date];
});

/** The account creation date with a calendar mark, or `customDate` as given, at the bottom right. */
export const dateStep: RenderStep = {
  name: 'date',
  draw(context, scene) {
    const runs = dateLayout(context, scene);
    const first = runs[0];
    if (first && !scene.date.custom) {
      // Before the whole line: the label's when there is one.
      const iconSize = first.style.size;
      drawCalendarIcon(context, first.x - ICON_GAP - iconSize, DATE.baseline - iconSize * 0.92, iconSize, runs.at(-1)?.style.color ?? first.style.color);
    }
    for (const run of runs) drawText(context, run.text, run.x, run.baseline, run.style);
  },
};

/** A small calendar mark drawn beside the creation date; `size` is its height. */
function drawCalendarIcon(context: CanvasRenderingContext2D, x: number, y: number, size: number, color: string): void {
  const u = (value: number) => (value / 16) * size;
  context.save();
  context.translate(x, y);
  context.strokeStyle = color;
  context.fillStyle = color;
  context.lineWidth = u(1.5);
  roundedRectPath(context, u(1.5), u(3), u(13), u(11.5), u(2.5));
  context.stroke();
  context.fillRect(u(1.5), u(5.5), u(13), u(1.5));
  context.lineCap = 'round';
  context.beginPath();
  context.moveTo(u(5), u(1.5));
  context.lineTo(u(5), u(4));
  context.moveTo(u(11), u(1.5));
  context.lineTo(u(11), u(4));
  context.stroke();
  context.restore();
}
