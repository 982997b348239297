import type { CanvasRenderingContext2D } from 'canvas';
import { drawText, measureText, type TextStyle } from '../text/rich-text.ts';

/**
 * Numbers in a column set in tabular figures: every digit takes the width of the family's widest
 * digit, centred in it, so the digits of one row stand under those of the next ("1,204" under
 * "9,870") whatever the family. node-canvas gives Pango no OpenType features (no `tnum`), and most
 * of the card's families have proportional digits by default, so the cells are laid out here; the
 * other characters of a compact number ("K", ".", "#") keep their own width.
 */
const DIGIT = /^[0-9]$/;

function digitCell(context: CanvasRenderingContext2D, style: TextStyle): number {
  // Ten measurements, each from the text measurement cache after the first card.
  return Math.max(...'0123456789'.split('').map((digit) => measureText(context, digit, style)));
}

function advances(context: CanvasRenderingContext2D, text: string, style: TextStyle): { character: string; width: number; digit: boolean }[] {
  const cell = digitCell(context, style);
  return Array.from(text, (character) => (DIGIT.test(character) ? { character, width: cell, digit: true } : { character, width: measureText(context, character, style), digit: false }));
}

/** The width `text` takes in tabular figures. */
export function tabularWidth(context: CanvasRenderingContext2D, text: string, style: TextStyle): number {
  return advances(context, text, style).reduce((sum, advance) => sum + advance.width, 0);
}

/** Draws `text` in tabular figures from its left edge `x` on the baseline `y`. */
export function drawTabular(context: CanvasRenderingContext2D, text: string, x: number, y: number, style: TextStyle): void {
  let cursor = x;
  for (const advance of advances(context, text, style)) {
    if (advance.digit) drawText(context, advance.character, cursor + advance.width / 2, y, style, 'center');
    else drawText(context, advance.character, cursor, y, style);
    cursor += advance.width;
  }
}
