import type { CanvasRenderingContext2D } from 'canvas';
import type { Scene } from '../scene.ts';

/** One layer of the card. Steps run in order, each on the same context in 1x coordinates. */
export interface RenderStep {
  name: string;
  draw(context: CanvasRenderingContext2D, scene: Scene): void;
}
