/**
 * The card's type scale, written once: every layout takes its text sizes from here, the tests
 * check rendered cards against it and docs/card-design.md states it in display pixels.
 *
 * Discord shows a 900x300 card 400 to 550 px wide, so a size at 1x shrinks to 44-61% on screen.
 * The scale is set for the narrowest, 400 px: there a 16 px label is 7 px, too small to read
 * (measured on the old cards: tag, XP, date and LEVEL/RANK labels at 8-10 px). Secondary text now
 * starts at 25 px (11.1 px on screen; Inter's x-height, 0.55 of the size, is 6 px there, the
 * x-height of 11 px body text) and the name at 45 px (20 px on screen). Fewer, bigger elements
 * rather than more small ones: a step below `small` does not exist.
 */

/** Width Discord shows a card at (the narrowest of its 400-550 px), where sizes are judged. */
export const DISPLAY_WIDTH = 400;

/** The card's width at 1x; card-layout.ts's CARD.width reads it. */
export const CARD_WIDTH = 900;

/** Sizes at 1x, in px, smallest first. */
export const TYPE_SCALE = {
  /** Secondary text: labels, XP, date, subtitle, the smallest a shrinking line may go. */
  small: 25,
  /** Tag, message: the second line of a block. */
  body: 28,
  /** The welcome headline, a supporting line above the name. */
  title: 34,
  /** Level and rank numbers. */
  value: 40,
  /** The smallest a name may shrink to before it is cut with "…". */
  nameMin: 45,
  /** The profile card's name. */
  name: 56,
  /** The welcome card's name, its focus. */
  display: 64,
} as const;

/** How tall `size` (1x px) is on screen when the card is shown `displayWidth` px wide. */
export function displayPx(size: number, displayWidth = DISPLAY_WIDTH): number {
  return (size * displayWidth) / CARD_WIDTH;
}

/** The least size on screen at 400 px, for secondary text and for the name. */
export const MIN_DISPLAY_PX = { text: 11, name: 20 } as const;

/** The smallest size any text on the card is drawn at, in 1x pixels. */
export const MIN_TEXT_SIZE = TYPE_SCALE.small;
/** The smallest size a name is drawn at, in 1x pixels. */
export const MIN_NAME_SIZE = TYPE_SCALE.nameMin;
