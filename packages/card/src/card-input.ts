import type { CardOptions } from '@utility-api/render-jobs';
import type { CardProfile } from './profile/card-profile.ts';

export type CardScale = 1 | 2;

/** Everything a card is drawn from. Images arrive as bytes, already fetched by the caller. */
export interface CardInput {
  profile: CardProfile;
  options: CardOptions;
  /** Bytes for `options.customBackground` and for each of `options.customBadges`, in order. */
  images?: {
    background?: Buffer | undefined;
    customBadges?: readonly Buffer[] | undefined;
  };
  /** 1 for 900x300, 2 for 1800x600 (HiDPI). Default 1. */
  scale?: CardScale;
}
