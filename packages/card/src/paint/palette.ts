import { DEFAULT_CARD_ACCENT, parseHexColor, rgbToHex, type Rgb } from '@utility-api/render-jobs';
import { avoidMuddyHue, darken, rotateHue, tame } from '../color/color.ts';
import type { CardProfile } from '../profile/card-profile.ts';
import { dominantColor } from './image-palette.ts';
import type { Drawable } from './soften.ts';

export type Palette = { primary: Rgb; secondary: Rgb };

/** The pictures a card without colours takes its accent from, first that has one. */
export type PalettePictures = { avatar?: Drawable | undefined; background?: Drawable | undefined };

/** An accent and a neighbouring hue, darker: the ring's and the generated art's second colour. */
function fromAccent(accent: Rgb): Palette {
  return { primary: accent, secondary: darken(rotateHue(accent, 38), 0.2) };
}

/**
 * The card's two colors, from the member: the profile theme when it has one (and it is not
 * disabled), else the accent color, else the dominant vivid colour of the avatar, else of the
 * background photo (image-palette.ts), else DEFAULT_CARD_ACCENT. Never from the user id: a hash
 * gave a pink avatar a lime ring.
 */
export function resolvePalette(profile: Pick<CardProfile, 'themeColors' | 'accentColor'>, disableProfileTheme: boolean, pictures: PalettePictures = {}): Palette {
  if (profile.themeColors && !disableProfileTheme) {
    return { primary: parseHexColor(profile.themeColors[0]), secondary: parseHexColor(profile.themeColors[1]) };
  }
  if (profile.accentColor) return fromAccent(parseHexColor(profile.accentColor));
  const picked = (pictures.avatar && dominantColor(pictures.avatar)) ?? (pictures.background && dominantColor(pictures.background));
  return fromAccent(picked ?? parseHexColor(DEFAULT_CARD_ACCENT));
}

/** The palette pushed into a range that stays behind white text: saturated, never too light. */
export function backgroundTones(palette: Palette): Palette {
  const limits = { minSaturation: 0.4, minLightness: 0.18, maxLightness: 0.42 };
  return { primary: tame(avoidMuddyHue(palette.primary), limits), secondary: tame(avoidMuddyHue(palette.secondary), limits) };
}

/**
 * The card's accent as `#rrggbb`: the palette's primary colour, the one its ring, border and bar
 * are drawn from. Answered with the card (`X-Card-Accent`) so a bot can tint what
 * surrounds the card (a Components V2 container's `accent_color`) with the card's own colour.
 */
export function accentColor(palette: Palette): string {
  return rgbToHex(palette.primary);
}
