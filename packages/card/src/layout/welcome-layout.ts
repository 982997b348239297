import type { AvatarBox } from './card-layout.ts';
import { MIN_NAME_SIZE, MIN_TEXT_SIZE, TYPE_SCALE } from './type-scale.ts';

/**
 * The welcome layout, in 1x pixels. Its focus is the member: a larger avatar than the profile
 * card's and the name as the largest line, the headline a supporting title above it and the
 * message readable under it. The panel, badges and border sit where the profile layout puts them
 * (card-layout.ts); the creation date is not drawn (a welcome card is about joining, and an
 * unlabelled account date reads as a random one), a `customDate` is.
 */

/** As large as the card allows: its decoration (1.2x, 260 px) stays inside the panel. */
export const WELCOME_AVATAR = { centerX: 152, centerY: 150, radius: 108, ringWidth: 7, squareRadius: 34 } as const satisfies AvatarBox;

/** The text column right of the avatar (its ring and decoration leave 30 px before it). */
export const WELCOME_TEXT_COLUMN = { left: 300, right: 856 } as const;

export const WELCOME_TEXT = {
  /** Room the block must stay inside: under the panel's top padding, above the panel's bottom padding. */
  top: 36,
  bottom: 264,
  /** Bottom of the room when a `customDate` takes the line at the bottom right. */
  bottomAboveDate: 230,
  /** Space kept under the badge row when the headline would reach under it. */
  badgeClearance: 12,
} as const;

/** `letterSpacing` is a share of the size (3 px at 34 px); only for Latin, Greek, Cyrillic and Armenian headlines. */
export const WELCOME_HEADLINE = { size: TYPE_SCALE.title, minSize: MIN_TEXT_SIZE, letterSpacing: 0.09 } as const;
export const WELCOME_NAME = { size: TYPE_SCALE.display, minSize: MIN_NAME_SIZE } as const;
/** `gap`: beside the name; `lineGap`: above it when it takes its own line under a long name. */
export const WELCOME_TAG = { size: TYPE_SCALE.body, minSize: MIN_TEXT_SIZE, gap: 14, lineGap: 10 } as const;
export const WELCOME_MESSAGE = { size: TYPE_SCALE.body, minSize: MIN_TEXT_SIZE, gap: 14 } as const;
export const WELCOME_SUBTITLE = { size: TYPE_SCALE.small, minSize: MIN_TEXT_SIZE, gap: 10 } as const;

/** The short accent rule between the headline and the name. */
export const WELCOME_RULE = { width: 64, height: 4, gapAbove: 12, gapBelow: 14 } as const;
