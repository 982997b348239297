import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import { AVATAR, AVATAR_DECORATION_SCALE } from '../layout/card-layout.ts';
import { circlePath, coverCrop, roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import type { RenderStep } from './render-steps.ts';
import type { Palette } from '../paint/palette.ts';

function avatarShapePath(context: CanvasRenderingContext2D, square: boolean, grow = 0): void {
  const radius = AVATAR.radius + grow;
  if (square) {
    roundedRectPath(context, AVATAR.centerX - radius, AVATAR.centerY - radius, radius * 2, radius * 2, AVATAR.squareRadius + grow);
  } else {
    circlePath(context, AVATAR.centerX, AVATAR.centerY, radius);
  }
}

function drawRing(context: CanvasRenderingContext2D, scene: Scene): void {
  const { centerX, centerY, radius, ringWidth } = AVATAR;
  const gradient = context.createLinearGradient(centerX - radius, centerY - radius, centerX + radius, centerY + radius);
  gradient.addColorStop(0, rgba(lighten(scene.palette.primary, 0.35)));
  gradient.addColorStop(1, rgba(lighten(scene.palette.secondary, 0.1)));
  avatarShapePath(context, scene.avatar.square, ringWidth / 2 + 3);
  context.lineWidth = ringWidth;
  context.strokeStyle = gradient;
  context.stroke();
}

export const avatarStep: RenderStep = {
  name: 'avatar',
  draw(context, scene) {
    const { centerX, centerY, radius } = AVATAR;
    if (scene.avatar.ring) drawRing(context, scene);
    context.save();
    avatarShapePath(context, scene.avatar.square);
    context.clip();
    const image = scene.avatar.image;
    if (image) {
      const crop = coverCrop(image.width, image.height, 1, 1);
      context.drawImage(image, crop.x, crop.y, crop.width, crop.height, centerX - radius, centerY - radius, radius * 2, radius * 2);
    } else {
      drawDefaultAvatar(context, scene.palette, centerX, centerY, radius);
    }
    context.restore();
    const decoration = scene.avatar.decoration;
    if (decoration) {
      const side = radius * 2 * AVATAR_DECORATION_SCALE;
      context.drawImage(decoration, centerX - side / 2, centerY - side / 2, side, side);
    }
  },
};

/**
 * Our default avatar for users without one: the card's colors in a soft diagonal gradient and a
 * simple head-and-shoulders silhouette. Drawn inside the avatar clip, centred on (cx, cy).
 */
function drawDefaultAvatar(context: CanvasRenderingContext2D, palette: Palette, cx: number, cy: number, radius: number): void {
  context.fillStyle = withStops(context.createLinearGradient(cx - radius, cy - radius, cx + radius, cy + radius), [[0, rgba(lighten(palette.primary, 0.25))], [1, rgba(palette.secondary)]]);
  context.fillRect(cx - radius, cy - radius, radius * 2, radius * 2);
  context.fillStyle = 'rgba(255, 255, 255, 0.9)';
  context.beginPath();
  context.arc(cx, cy - radius * 0.2, radius * 0.3, 0, Math.PI * 2);
  context.fill();
  context.beginPath();
  context.ellipse(cx, cy + radius * 0.66, radius * 0.58, radius * 0.44, 0, 0, Math.PI * 2);
  context.fill();
}
