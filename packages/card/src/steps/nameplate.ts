import type { CanvasRenderingContext2D } from 'canvas';
import { parseHexColor } from '@utility-api/render-jobs';
import { rgba } from '../color/color.ts';
import { AVATAR_DECORATION_SCALE, NAMEPLATE } from '../layout/card-layout.ts';
import { textBounds, type PlacedText } from '../layout/placed-text.ts';
import { roundedRectPath } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from './render-steps.ts';

/** The runs a nameplate lies behind: the name's lines, and the tag beside or under it. */
const NAMEPLATE_ROLES = new Set(['name', 'tag', 'server tag']);

/**
 * Discord's nameplate (a collectible it draws behind a member's name): a band behind the name and
 * tag, filled with the plate's palette (its dark colour fading to its light one, then to nothing,
 * so the photo still shows at the right) and its image over it, right-aligned. It is drawn before
 * the legibility step, which then measures the text against it like against any background.
 */
export function nameplateStepFor(textRuns: (context: CanvasRenderingContext2D, scene: Scene) => PlacedText[]): RenderStep {
  return {
    name: 'nameplate',
    draw(context, scene) {
      const plate = scene.nameplate;
      if (!plate) return;
      const boxes = textRuns(context, scene)
        .filter((run) => NAMEPLATE_ROLES.has(run.role))
        .map(textBounds);
      if (boxes.length === 0) return;
      const top = Math.min(...boxes.map((box) => box.y)) - NAMEPLATE.padY;
      const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + NAMEPLATE.padY;
      // From just right of the avatar and its decoration (wherever the layout puts them) to the panel's edge.
      const { box } = scene.avatar;
      const left = box.centerX + box.radius * AVATAR_DECORATION_SCALE + NAMEPLATE.avatarGap;
      const width = NAMEPLATE.right - left;
      const height = bottom - top;
      context.save();
      roundedRectPath(context, left, top, width, height, NAMEPLATE.radius);
      context.clip();
      if (plate.colors) {
        const [dark, light] = plate.colors.map(parseHexColor) as [ReturnType<typeof parseHexColor>, ReturnType<typeof parseHexColor>];
        const gradient = context.createLinearGradient(left, 0, NAMEPLATE.right, 0);
        gradient.addColorStop(0, rgba(dark, 0.8));
        gradient.addColorStop(0.55, rgba(light, 0.4));
        gradient.addColorStop(1, rgba(light, 0));
        context.fillStyle = gradient;
        context.fillRect(left, top, width, height);
      }
      if (plate.image) {
        // Cover the band's height, right-aligned: a plate's artwork sits at the end of the row.
        const scale = Math.max(height / plate.image.height, width / plate.image.width);
        const drawnWidth = plate.image.width * scale;
        const drawnHeight = plate.image.height * scale;
        context.globalAlpha = NAMEPLATE.alpha;
        context.drawImage(plate.image, NAMEPLATE.right - drawnWidth, top + (height - drawnHeight) / 2, drawnWidth, drawnHeight);
      }
      context.restore();
    },
  };
}
