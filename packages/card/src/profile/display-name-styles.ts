import { CARD_FONT_FAMILIES, type CardFontFamily } from '@utility-api/render-jobs';
import type { CardProfile } from './card-profile.ts';

/**
 * Experimental (`experimentalDisplayNameStyles`): Discord's display-name styles are undocumented;
 * these are the bundled typefaces that look closest to the fonts Discord's client offers, by the
 * `font_id` it sends (as observed; Discord may renumber them). An id not listed keeps the card's font.
 */
const DISPLAY_NAME_FONTS: Readonly<Record<number, CardFontFamily>> = Object.freeze({
  // Tempo: a narrow grotesque.
  1: 'roboto-condensed',
  // Sakura and Jellybean: soft, rounded letters.
  2: 'comfortaa',
  3: 'comfortaa',
  // Modern: a geometric sans.
  4: 'manrope',
  // Medieval: a classic serif.
  5: 'eb-garamond',
  // 8Bit: a pixel face.
  6: 'press-start-2p',
  // Vampyre: a sharp book serif.
  7: 'literata',
});

/** `effect_id` of Discord's solid style: one colour, the first. Every other effect is drawn as a gradient of its colours. */
const SOLID_EFFECT_ID = 1;

/** The name's typeface and colours from a display-name style; undefined without one. */
export function displayNameStyleFill(style: CardProfile['displayNameStyle']): { family?: string; colors: readonly string[] } | undefined {
  if (!style) return undefined;
  const font = DISPLAY_NAME_FONTS[style.fontId];
  const colors = style.effectId === SOLID_EFFECT_ID ? style.colors.slice(0, 1) : style.colors;
  return { ...(font && { family: CARD_FONT_FAMILIES[font].name }), colors };
}
