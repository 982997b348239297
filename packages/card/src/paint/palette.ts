import { parseHexColor, rgbToHex, type Rgb } from '@utility-api/render-jobs';
import { avoidMuddyHue, darken, fromHsl, rotateHue, tame } from '../color/color.ts';
import { type CardProfile, idHash } from '../profile/card-profile.ts';

export type Palette = { primary: Rgb; secondary: Rgb };

/**
 * The card's two colors: the profile theme when it has one (and it is not disabled), else the
 * accent color with a neighbouring hue, else a hue picked from the user id so every user still
 * gets a stable color of their own.
 */
export function resolvePalette(profile: CardProfile, disableProfileTheme: boolean): Palette {
  if (profile.themeColors && !disableProfileTheme) {
    return { primary: parseHexColor(profile.themeColors[0]), secondary: parseHexColor(profile.themeColors[1]) };
  }
  if (profile.accentColor) {
    const accent = parseHexColor(profile.accentColor);
    return { primary: accent, secondary: darken(rotateHue(accent, 38), 0.2) };
  }
  const hue = idHash(profile.userId) % 360;
  return { primary: fromHsl(hue, 0.58, 0.56), secondary: fromHsl(hue + 42, 0.62, 0.42) };
}

/** The palette pushed into a range that stays behind white text: saturated, never too light. */
export function backgroundTones(palette: Palette): Palette {
  const limits = { minSaturation: 0.4, minLightness: 0.18, maxLightness: 0.42 };
  return { primary: tame(avoidMuddyHue(palette.primary), limits), secondary: tame(avoidMuddyHue(palette.secondary), limits) };
}

/**
 * The card's accent as `#rrggbb`: the palette's primary colour, the one its ring, border and bar
 * are drawn from. Answered with the card (`X-Card-Accent`, `accentColor`) so a bot can tint what
 * surrounds the card (a Components V2 container's `accent_color`) with the card's own colour.
 */
export function accentColor(palette: Palette): string {
  return rgbToHex(palette.primary);
}
