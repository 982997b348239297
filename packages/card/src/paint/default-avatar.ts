import type { CanvasRenderingContext2D } from 'canvas';
import { lighten, rgba } from '../color/color.ts';
import type { Palette } from './palette.ts';

/**
 * Our default avatar for users without one: the card's colors in a soft diagonal gradient and a
 * simple head-and-shoulders silhouette. Drawn inside the avatar clip, centred on (cx, cy).
 */
export function drawDefaultAvatar(context: CanvasRenderingContext2D, palette: Palette, cx: number, cy: number, radius: number): void {
  const gradient = context.createLinearGradient(cx - radius, cy - radius, cx + radius, cy + radius);
  gradient.addColorStop(0, rgba(lighten(palette.primary, 0.25)));
  gradient.addColorStop(1, rgba(palette.secondary));
  context.fillStyle = gradient;
  context.fillRect(cx - radius, cy - radius, radius * 2, radius * 2);
  context.fillStyle = 'rgba(255, 255, 255, 0.9)';
  context.beginPath();
  context.arc(cx, cy - radius * 0.2, radius * 0.3, 0, Math.PI * 2);
  context.fill();
  context.beginPath();
  context.ellipse(cx, cy + radius * 0.66, radius * 0.58, radius * 0.44, 0, 0, Math.PI * 2);
  context.fill();
}
