import { createCanvas, type CanvasRenderingContext2D } from 'canvas';
import { darken, lighten, rgba } from '../color/color.ts';
import { AVATAR_DECORATION_SCALE, type AvatarBox } from '../layout/card-layout.ts';
import type { Palette } from '../paint/palette.ts';
import { circlePath, coverCrop, roundedRectPath, withStops } from '../paint/shapes.ts';
import type { Scene } from '../scene.ts';
import { cutPresence } from './presence.ts';
import type { RenderStep } from './render-steps.ts';

/** Half the side of the square the avatar layer covers: the decoration (1.2x) plus its antialiasing. */
const layerHalf = (box: AvatarBox) => Math.ceil(box.radius * AVATAR_DECORATION_SCALE) + 4;

/**
 * A square avatar's half side: the full radius, or, under a decoration (drawn for round avatars),
 * small enough that its rounded corners stay inside the decoration's ring instead of poking out.
 */
function squareHalf(scene: Scene): number {
  const { radius, squareRadius: corner } = scene.avatar.box;
  if (!scene.avatar.decoration) return radius;
  return corner + (radius - corner) / Math.SQRT2;
}

function avatarShapePath(context: CanvasRenderingContext2D, scene: Scene, grow = 0): void {
  const { centerX, centerY, radius, squareRadius } = scene.avatar.box;
  if (scene.avatar.square) {
    const half = squareHalf(scene) + grow;
    roundedRectPath(context, centerX - half, centerY - half, half * 2, half * 2, squareRadius + grow);
  } else {
    circlePath(context, centerX, centerY, radius + grow);
  }
}

function drawRing(context: CanvasRenderingContext2D, scene: Scene): void {
  const { centerX, centerY, radius, ringWidth } = scene.avatar.box;
  const gradient = context.createLinearGradient(centerX - radius, centerY - radius, centerX + radius, centerY + radius);
  gradient.addColorStop(0, rgba(lighten(scene.palette.primary, 0.35)));
  gradient.addColorStop(1, rgba(lighten(scene.palette.secondary, 0.1)));
  avatarShapePath(context, scene, ringWidth / 2 + 3);
  context.lineWidth = ringWidth;
  context.strokeStyle = gradient;
  context.stroke();
}

/** The ring, the picture in its shape and the decoration, in the layer's (card) coordinates. */
function drawAvatar(context: CanvasRenderingContext2D, scene: Scene): void {
  const { centerX, centerY, radius } = scene.avatar.box;
  if (scene.avatar.ring) drawRing(context, scene);
  context.save();
  avatarShapePath(context, scene);
  context.clip();
  const image = scene.avatar.image;
  const half = scene.avatar.square ? squareHalf(scene) : radius;
  if (image) {
    const crop = coverCrop(image.width, image.height, 1, 1);
    context.drawImage(image, crop.x, crop.y, crop.width, crop.height, centerX - half, centerY - half, half * 2, half * 2);
  } else {
    drawDefaultAvatar(context, scene.palette, centerX, centerY, half);
  }
  context.restore();
  const decoration = scene.avatar.decoration;
  if (decoration) {
    const side = radius * 2 * AVATAR_DECORATION_SCALE;
    context.drawImage(decoration, centerX - side / 2, centerY - side / 2, side, side);
  }
}

/**
 * The avatar is drawn on a layer of its own, so the status mark can cut a real hole in it: what
 * shows around the dot is the panel and background beneath, not a painted ring.
 */
export const avatarStep: RenderStep = {
  name: 'avatar',
  draw(context, scene) {
    const half = layerHalf(scene.avatar.box);
    const left = scene.avatar.box.centerX - half;
    const top = scene.avatar.box.centerY - half;
    const layer = createCanvas(half * 2 * scene.scale, half * 2 * scene.scale);
    const layerContext = layer.getContext('2d');
    layerContext.scale(scene.scale, scene.scale);
    layerContext.translate(-left, -top);
    layerContext.imageSmoothingEnabled = true;
    layerContext.patternQuality = 'good';
    drawAvatar(layerContext, scene);
    if (scene.presence) cutPresence(layerContext, scene);
    context.drawImage(layer, left, top, half * 2, half * 2);
  },
};

/**
 * Our default avatar for users without one: a deep tone of the card's colors and a light
 * head-and-shoulders silhouette, darker than the ring so the ring still reads around it.
 */
export function drawDefaultAvatar(context: CanvasRenderingContext2D, palette: Palette, cx: number, cy: number, radius: number): void {
  context.fillStyle = withStops(context.createLinearGradient(cx - radius, cy - radius, cx + radius, cy + radius), [[0, rgba(darken(palette.primary, 0.3))], [1, rgba(darken(palette.secondary, 0.5))]]);
  context.fillRect(cx - radius, cy - radius, radius * 2, radius * 2);
  context.fillStyle = 'rgba(255, 255, 255, 0.88)';
  context.beginPath();
  context.arc(cx, cy - radius * 0.2, radius * 0.3, 0, Math.PI * 2);
  context.fill();
  context.beginPath();
  context.ellipse(cx, cy + radius * 0.66, radius * 0.58, radius * 0.44, 0, 0, Math.PI * 2);
  context.fill();
}
