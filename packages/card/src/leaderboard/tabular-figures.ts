import { type Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { staticLayerCache } from '../cache/card-caches.ts';
import { cardFamilyOf, drawInFamily, drawText, measureText, type TextStyle } from '../text/rich-text.ts';

/**
 * Numbers in a column set in tabular figures: every digit takes the width of the family's widest
 * digit, centred in it, so the digits of one row stand under those of the next ("1,204" under
 * "9,870"). node-canvas gives Pango no OpenType features (no `tnum`), and Inter's digits are
 * proportional by default, so the cells are laid out here; the other characters of a compact
 * number ("K", ".") keep their own width.
 *
 * Each character is drawn once per style and scale onto a small layer (the static layer cache) and
 * copied onto the board: drawing the ~80 characters of a board one Pango call each cost ~20 ms of
 * CPU, more than the rest of its text. The board is drawn in the default family (it has no
 * `fontFamily`), so the family is not part of the key.
 */
const DIGIT = /^[0-9]$/;

/** The widest digit per style: every number of a board asks for it, once per character. */
const digitCells = new Map<string, number>();

function digitCell(context: CanvasRenderingContext2D, style: TextStyle): number {
  const key = `${style.size}:${style.weight}`;
  const known = digitCells.get(key);
  if (known !== undefined) return known;
  const cell = Math.max(...'0123456789'.split('').map((digit) => measureText(context, digit, style)));
  digitCells.set(key, cell);
  return cell;
}

function advances(context: CanvasRenderingContext2D, text: string, style: TextStyle): { character: string; width: number; digit: boolean }[] {
  const cell = digitCell(context, style);
  return Array.from(text, (character) => (DIGIT.test(character) ? { character, width: cell, digit: true } : { character, width: measureText(context, character, style), digit: false }));
}

/** The width `text` takes in tabular figures. */
export function tabularWidth(context: CanvasRenderingContext2D, text: string, style: TextStyle): number {
  return advances(context, text, style).reduce((sum, advance) => sum + advance.width, 0);
}

/** Room around a glyph on its layer, in 1x pixels: overhangs and antialiasing. */
const PAD = 4;

/** A text on a transparent layer at device pixels: its pen at (PAD, `size` + PAD) in 1x units. */
function glyphLayer(context: CanvasRenderingContext2D, character: string, width: number, style: TextStyle, scale: number): Canvas {
  const family = cardFamilyOf(context);
  const key = `tabular:${family}:${style.family ?? ''}:${style.size}:${style.weight}:${style.color}:${style.letterSpacing ?? 0}:${scale}:${character}`;
  const cached = staticLayerCache.get(key);
  if (cached) return cached.canvas;
  const canvas = createCanvas(Math.ceil((width + PAD * 2) * scale), Math.ceil((style.size * 1.3 + PAD * 2) * scale));
  // The layer draws in the family of the context it is copied onto.
  const layer = drawInFamily(canvas.getContext('2d'), family);
  layer.scale(scale, scale);
  drawText(layer, character, PAD, style.size + PAD, style);
  staticLayerCache.set(key, { canvas });
  return canvas;
}

/**
 * Draws `text` in tabular figures from its left edge `x` on the baseline `y`. Each layer lands on
 * whole device pixels (as the card's emoji do), so it is copied, never resampled: a character may
 * sit up to half a device pixel from where a text run would put it.
 */
export function drawTabular(context: CanvasRenderingContext2D, text: string, x: number, y: number, style: TextStyle): void {
  const { a: scale, e: offsetX, f: offsetY } = context.getTransform();
  let cursor = x;
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  for (const advance of advances(context, text, style)) {
    const glyphWidth = advance.digit ? measureText(context, advance.character, style) : advance.width;
    const left = advance.digit ? cursor + (advance.width - glyphWidth) / 2 : cursor;
    const layer = glyphLayer(context, advance.character, glyphWidth, style, scale);
    context.drawImage(layer, Math.round((left - PAD) * scale + offsetX), Math.round((y - style.size - PAD) * scale + offsetY));
    cursor += advance.width;
  }
  context.restore();
}

/**
 * Draws a whole run from a cached layer, for the texts a board repeats from one render to the next
 * (ranks "#1" to "#10", the column headings, the title, the medals' digits): one Pango call per
 * text and style in the process instead of one per board, where it cost ~0.15 ms a run. Placed on
 * whole device pixels like the digits above.
 */
export function drawFromLayer(context: CanvasRenderingContext2D, text: string, x: number, y: number, style: TextStyle): void {
  const { a: scale, e: offsetX, f: offsetY } = context.getTransform();
  const layer = glyphLayer(context, text, measureText(context, text, style), style, scale);
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(layer, Math.round((x - PAD) * scale + offsetX), Math.round((y - style.size - PAD) * scale + offsetY));
  context.restore();
}
