import { CARD_FONT_FAMILIES, DEFAULT_CARD_FONT_FAMILY } from '@utility-api/render-jobs';
import { type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { prepareCardFonts } from '../fonts/card-fonts.ts';

/**
 * How each `fontFamily` is sized and spaced so that every family reads as large as the default.
 *
 * Small text reads by its x-height, not by its font size: EB Garamond's lower case is 0.40 of its
 * size, Inter's 0.55, so at the same 25 px Garamond's secondary text read visibly smaller at the
 * 400 px Discord shows a card (issue 34), and Press Start 2P's (0.75, capitals a full em) read
 * larger and ran out of room. A TextStyle's `size` is therefore the size in the default family
 * (Inter); each family is drawn at that size times Inter's x-height over its own, so its lower case
 * is as tall as Inter's (the CSS `font-size-adjust` idea). The type scale, the 11 px floor and the
 * layouts keep working in Inter sizes, for every family.
 */

/** The family the type scale is written for; every other family is sized to read like it. */
const REFERENCE_FAMILY = CARD_FONT_FAMILIES[DEFAULT_CARD_FONT_FAMILY].name;

/** Large enough that Pango's whole-pixel ink extents measure the x-height within 0.3 %. */
const MEASURE_SIZE = 400;

const CARD_FAMILY_NAMES: ReadonlySet<string> = new Set(Object.values(CARD_FONT_FAMILIES).map((family) => family.name));

/** Each family's x-height as a share of its size, measured once per process on first use. */
const xHeights = new Map<string, number>();
let measuringContext: CanvasRenderingContext2D | undefined;

/**
 * The x-height of a card family as a share of its font size: the ink height of "x" as Pango draws
 * it from the registered file (Inter 0.546, EB Garamond 0.405 with its serifs, Press Start 2P 0.750;
 * tests/process/card/font-families.test.ts compares it with the glyph's outline in the file).
 */
export function xHeightOf(family: string): number {
  const known = xHeights.get(family);
  if (known !== undefined) return known;
  // The families must be registered before the first measurement, or a fallback face is measured (and kept).
  prepareCardFonts();
  measuringContext ??= createCanvas(1, 1).getContext('2d');
  measuringContext.font = `400 ${MEASURE_SIZE}px "${family}"`;
  const xHeight = measuringContext.measureText('x').actualBoundingBoxAscent / MEASURE_SIZE;
  xHeights.set(family, xHeight);
  return xHeight;
}

/**
 * What a TextStyle's size is multiplied by to draw `family`: 1 for Inter, 1.36 for EB Garamond,
 * 0.73 for Press Start 2P. Faces that are not card families (script fallbacks) are not adjusted.
 */
export function familySizeFactor(family: string): number {
  if (family === REFERENCE_FAMILY || !CARD_FAMILY_NAMES.has(family)) return 1;
  return xHeightOf(REFERENCE_FAMILY) / xHeightOf(family);
}

/**
 * Spacing a family needs beyond its size. Press Start 2P is a pixel face whose every glyph fills an
 * 8x8 cell edge to edge, with no side bearings to speak of: letter-spaced labels then read as a
 * strip of blocks, and a label 8 px from its number ran into it ("LEVEL23"): its word space is a
 * whole em, so a gap narrower than that reads as no gap. It draws labels unspaced and widens the
 * gaps between a label and its value and between a row's groups; other families use the layout's own.
 */
export interface FamilySpacing {
  /** Multiplies a style's `letterSpacing`. */
  letterSpacing: number;
  /** Added to the gaps between a label and the value it names and between two groups of a row, in 1x pixels. */
  gapExtra: number;
}

const DEFAULT_SPACING: FamilySpacing = { letterSpacing: 1, gapExtra: 0 };
const FAMILY_SPACING: Readonly<Record<string, FamilySpacing>> = {
  [CARD_FONT_FAMILIES['press-start-2p'].name]: { letterSpacing: 0, gapExtra: 8 },
};

export function familySpacing(family: string): FamilySpacing {
  return FAMILY_SPACING[family] ?? DEFAULT_SPACING;
}
