import type { CanvasRenderingContext2D } from 'canvas';
import type { BadgeKind } from '../profile/card-profile.ts';
import { circlePath, roundedRectPath } from '../paint/shapes.ts';

/**
 * Our own badge icons, drawn with paths on a 24-unit grid (so they stay sharp at any size): a
 * colored base shape and a white glyph. They echo what each profile flag means without copying
 * any platform artwork.
 */
type Unit = (value: number) => number;
type IconPainter = (context: CanvasRenderingContext2D, u: Unit) => void;

const WHITE = '#ffffff';

type Shape = 'circle' | 'square' | 'diamond' | 'shield';

/** Straight segments on the 24-unit grid: each run of `[x, y]` points is a subpath; `closed` closes the last one. */
function polyline(context: CanvasRenderingContext2D, u: Unit, closed: boolean, ...runs: (readonly (readonly [number, number])[])[]) {
  context.beginPath();
  for (const run of runs) {
    for (const [index, [x, y]] of run.entries()) {
      if (index === 0) context.moveTo(u(x), u(y));
      else context.lineTo(u(x), u(y));
    }
  }
  if (closed) context.closePath();
}

function base(context: CanvasRenderingContext2D, u: Unit, shape: Shape, color: string) {
  context.fillStyle = color;
  if (shape === 'circle') circlePath(context, u(12), u(12), u(11.5));
  else if (shape === 'square') roundedRectPath(context, u(0.5), u(0.5), u(23), u(23), u(6));
  else if (shape === 'diamond') polyline(context, u, true, [[12, 0.5], [23.5, 12], [12, 23.5], [0.5, 12]]);
  else {
    context.beginPath();
    context.moveTo(u(12), u(0.5));
    context.lineTo(u(22), u(4));
    context.bezierCurveTo(u(22), u(14), u(18), u(20), u(12), u(23.5));
    context.bezierCurveTo(u(6), u(20), u(2), u(14), u(2), u(4));
    context.closePath();
  }
  context.fill();
  context.lineWidth = u(1);
  context.strokeStyle = 'rgba(0, 0, 0, 0.25)';
  context.stroke();
}

function fillWhite(context: CanvasRenderingContext2D) {
  context.fillStyle = WHITE;
  context.fill();
}

function stroke(context: CanvasRenderingContext2D, u: Unit, width: number, color = WHITE) {
  context.lineWidth = u(width);
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = color;
  context.stroke();
}

function star(context: CanvasRenderingContext2D, u: Unit, cx: number, cy: number, outer: number, inner: number) {
  context.beginPath();
  for (let point = 0; point < 10; point += 1) {
    const radius = point % 2 === 0 ? outer : inner;
    const angle = -Math.PI / 2 + (point * Math.PI) / 5;
    const x = u(cx + radius * Math.cos(angle));
    const y = u(cy + radius * Math.sin(angle));
    if (point === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  }
  context.closePath();
}

function check(context: CanvasRenderingContext2D, u: Unit, color = WHITE) {
  polyline(context, u, false, [[7, 12.5], [10.5, 16], [17, 8.5]]);
  stroke(context, u, 2.6, color);
}

function bug(context: CanvasRenderingContext2D, u: Unit, color: string) {
  context.fillStyle = color;
  context.beginPath();
  context.ellipse(u(12), u(13.5), u(4), u(5.5), 0, 0, Math.PI * 2);
  context.fill();
  circlePath(context, u(12), u(7.2), u(2.4));
  context.fill();
  context.beginPath();
  for (const [y, reach] of [[11, 4], [14, 4.5], [17, 3.5]] as const) {
    context.moveTo(u(8), u(y));
    context.lineTo(u(8 - reach), u(y - 1));
    context.moveTo(u(16), u(y));
    context.lineTo(u(16 + reach), u(y - 1));
  }
  context.moveTo(u(11), u(5.5));
  context.lineTo(u(9.5), u(3.5));
  context.moveTo(u(13), u(5.5));
  context.lineTo(u(14.5), u(3.5));
  stroke(context, u, 1.5, color);
}

function heart(context: CanvasRenderingContext2D, u: Unit) {
  context.beginPath();
  context.moveTo(u(12), u(18.5));
  context.bezierCurveTo(u(4), u(13), u(5), u(6.5), u(9), u(6.5));
  context.bezierCurveTo(u(10.8), u(6.5), u(11.7), u(7.6), u(12), u(8.6));
  context.bezierCurveTo(u(12.3), u(7.6), u(13.2), u(6.5), u(15), u(6.5));
  context.bezierCurveTo(u(19), u(6.5), u(20), u(13), u(12), u(18.5));
  context.closePath();
  fillWhite(context);
}

/** Each badge's base shape and colour, and the glyph drawn on it. */
const ICONS: Record<BadgeKind, [Shape, string, IconPainter]> = {
  staff: ['shield', '#5865f2', (context, u) => {
    star(context, u, 12, 11.5, 6.5, 2.8);
    fillWhite(context);
  }],
  partner: ['circle', '#4087ed', (context, u) => {
    context.beginPath();
    context.moveTo(u(12), u(12));
    context.bezierCurveTo(u(9), u(7), u(4.5), u(8.5), u(4.5), u(12));
    context.bezierCurveTo(u(4.5), u(15.5), u(9), u(17), u(12), u(12));
    context.bezierCurveTo(u(15), u(7), u(19.5), u(8.5), u(19.5), u(12));
    context.bezierCurveTo(u(19.5), u(15.5), u(15), u(17), u(12), u(12));
    stroke(context, u, 2.2);
  }],
  hypesquad_events: ['diamond', '#f8a532', (context, u) => {
    polyline(context, u, true, [[12, 6], [18, 12], [12, 18], [6, 12]]);
    stroke(context, u, 2.2);
  }],
  bug_hunter_level_1: ['circle', '#3ba55c', (context, u) => bug(context, u, WHITE)],
  bug_hunter_level_2: ['circle', '#f0b232', (context, u) => bug(context, u, '#3a2a00')],
  hypesquad_bravery: ['diamond', '#9c84ef', (context, u) => {
    polyline(context, u, false, [[7.5, 14.5], [12, 9.5], [16.5, 14.5]]);
    stroke(context, u, 2.6);
  }],
  hypesquad_brilliance: ['diamond', '#f47b67', (context, u) => {
    circlePath(context, u(12), u(12), u(3.6));
    fillWhite(context);
  }],
  hypesquad_balance: ['diamond', '#2fc4a9', (context, u) => {
    polyline(context, u, true, [[12, 8], [16.2, 15], [7.8, 15]]);
    fillWhite(context);
  }],
  early_supporter: ['circle', '#e45fd8', heart],
  verified_developer: ['circle', '#3e70dd', (context, u) => {
    polyline(context, u, false, [[8.5, 8], [5, 12], [8.5, 16]], [[15.5, 8], [19, 12], [15.5, 16]], [[13.2, 7], [10.8, 17]]);
    stroke(context, u, 2);
  }],
  certified_moderator: ['shield', '#f28c28', check],
  active_developer: ['square', '#23a55a', (context, u) => {
    polyline(context, u, false, [[6.5, 8], [10.5, 12], [6.5, 16]], [[12.5, 16.5], [17.5, 16.5]]);
    stroke(context, u, 2.4);
  }],
  verified_bot: ['circle', '#5865f2', check],
};

/** Draws one badge icon filling the square at (x, y) of side `size`. */
export function drawBadgeIcon(context: CanvasRenderingContext2D, kind: BadgeKind, x: number, y: number, size: number): void {
  const unit: Unit = (value) => (value / 24) * size;
  context.save();
  context.translate(x, y);
  const [shape, color, glyph] = ICONS[kind];
  base(context, unit, shape, color);
  glyph(context, unit);
  context.restore();
}
