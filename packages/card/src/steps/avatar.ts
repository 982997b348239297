import { type Canvas, createCanvas, type CanvasRenderingContext2D } from 'canvas';
import { staticLayerCache } from '../cache/card-caches.ts';
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

/** A transparent canvas the size of the avatar layer, with `draw` done on it in card coordinates. */
function avatarLayer(box: AvatarBox, scale: number, draw: (context: CanvasRenderingContext2D) => void): Canvas {
  const half = layerHalf(box);
  const layer = createCanvas(half * 2 * scale, half * 2 * scale);
  const context = layer.getContext('2d');
  context.scale(scale, scale);
  context.translate(-(box.centerX - half), -(box.centerY - half));
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  draw(context);
  return layer;
}

/**
 * `draw` on a layer, or the layer a card of the same design drew before (see staticLayerCache).
 * `design` must hold everything the drawing depends on besides the scale.
 */
function cachedAvatarLayer(design: string, scene: Scene, draw: (context: CanvasRenderingContext2D) => void): Canvas {
  const { centerX, centerY, radius } = scene.avatar.box;
  // Each layout places and sizes its avatar itself: the box is part of the design.
  const key = `avatar:${scene.scale}:${centerX},${centerY},${radius}:${design}`;
  const cached = staticLayerCache.get(key);
  if (cached) return cached.canvas;
  const canvas = avatarLayer(scene.avatar.box, scene.scale, draw);
  staticLayerCache.set(key, { canvas });
  return canvas;
}

const paletteKey = (scene: Scene) => [scene.palette.primary, scene.palette.secondary].map((color) => `${color.r},${color.g},${color.b}`).join(';');
/** What the ring's shape and colors follow: the avatar's shape (a square one shrinks under a decoration) and the palette. */
const ringDesign = (scene: Scene) => `ring:${scene.avatar.square ? 'square' : 'round'}:${scene.avatar.decoration ? 'decorated' : 'plain'}:${paletteKey(scene)}`;

/**
 * The ring, the picture in its shape and the decoration, in the layer's (card) coordinates. The
 * ring is the same on every card of one palette and shape: it is drawn once and copied in, pixel
 * for pixel (1:1, no transform), onto the still empty layer, which gives the very pixels drawing it
 * would; the picture inside never touches it (3 px apart).
 */
function drawAvatar(context: CanvasRenderingContext2D, scene: Scene): void {
  const { centerX, centerY, radius } = scene.avatar.box;
  if (scene.avatar.ring) {
    const ring = cachedAvatarLayer(ringDesign(scene), scene, (ringContext) => drawRing(ringContext, scene));
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.drawImage(ring, 0, 0);
    context.restore();
  }
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

const drawAvatarLayer = (scene: Scene) => (context: CanvasRenderingContext2D) => {
  drawAvatar(context, scene);
  if (scene.presence) cutPresence(context, scene);
};

/**
 * The avatar is drawn on a layer of its own, so the status mark can cut a real hole in it: what
 * shows around the dot is the panel and background beneath, not a painted ring. The default avatar
 * (no picture, no decoration) makes the whole layer a function of the palette, shape, ring and
 * status, so that layer is drawn once per design; a picture (which may be an animation's frame) is
 * drawn on each card.
 */
export const avatarStep: RenderStep = {
  name: 'avatar',
  draw(context, scene) {
    const { image, decoration, ring } = scene.avatar;
    const layer =
      image === undefined && decoration === undefined
        ? cachedAvatarLayer(`default:${ring ? ringDesign(scene) : 'no ring'}:${scene.avatar.square ? 'square' : 'round'}:${paletteKey(scene)}:${scene.presence ?? 'no status'}`, scene, drawAvatarLayer(scene))
        : avatarLayer(scene.avatar.box, scene.scale, drawAvatarLayer(scene));
    const half = layerHalf(scene.avatar.box);
    context.drawImage(layer, scene.avatar.box.centerX - half, scene.avatar.box.centerY - half, half * 2, half * 2);
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
