export { cardCacheStats, clearCardCaches, configureCardCaches, DEFAULT_CARD_CACHE_LIMITS } from './cache/card-caches.ts';
export type { CardInput } from './profile/card-profile.ts';
export { prepareCardFonts } from './fonts/card-fonts.ts';
export { CardImageError, type CardImageErrorReason } from './images/index.ts';
export { BADGE_KINDS } from './profile/card-profile.ts';
export type { BadgeKind, CardProfile } from './profile/card-profile.ts';
export { PNG_ENCODING, renderCard } from './render-card.ts';
export { warmUpCardRenderer } from './warm-up.ts';
export type { RenderedCard } from './render-card.ts';
