import type { CardPanel, Rgb } from '@utility-api/render-jobs';

/**
 * The tone the card's text stands on. White or light text (the default) stands on a dark frosted
 * panel; a dark `usernameColor`, or without one a light background (theme.ts), turns the panel
 * light, and every text the caller did not colour follows: grey-on-dark becomes grey-on-light, so
 * a dark name never comes with white, unreadable small text beside it.
 */
export type Ground = 'dark' | 'light';

export const GROUND_COLOR: Readonly<Record<Ground, Rgb>> = {
  dark: { r: 8, g: 10, b: 18 },
  light: { r: 246, g: 247, b: 250 },
};

/**
 * The panel's own tint, left to right, per panel style (`panel`), before the legibility step adds
 * what the pixels need. The glass panel's is a hint of an edge, not a veil: the photo behind it is
 * the point, and each text gets its own scrim where it needs one (legibility-step.ts).
 */
export const PANEL_ALPHA: Readonly<Record<CardPanel, Readonly<Record<Ground, readonly [number, number]>>>> = {
  frosted: { dark: [0.5, 0.4], light: [0.62, 0.5] },
  glass: { dark: [0.16, 0.1], light: [0.2, 0.12] },
};

/** Default colors of the texts on each ground (each reaches 4.5:1 on its ground at full tint). */
export const GROUND_TEXT: Readonly<Record<Ground, { tag: string; subtitle: string; label: string; xp: string; date: string; value: string; shadow: string }>> = {
  dark: { tag: '#c9cdd6', subtitle: '#bfc4ce', label: '#b3b9c4', xp: '#e4e7ec', date: '#bfc4ce', value: '#ffffff', shadow: 'rgba(0, 0, 0, 0.35)' },
  light: { tag: '#3b404c', subtitle: '#454b58', label: '#4d5361', xp: '#262a33', date: '#454b58', value: '#14161c', shadow: 'rgba(255, 255, 255, 0.45)' },
};
