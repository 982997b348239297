export { cardCacheStats, clearCardCaches, configureCardCaches, DEFAULT_CARD_CACHE_LIMITS } from './cache/card-caches.ts';
export type { BadgeKind, CardInput, CardProfile } from './profile/card-profile.ts';
export { prepareCardFonts } from './fonts/card-fonts.ts';
export { CardImageError, type CardImageErrorReason } from './images/card-image-error.ts';
export { PNG_ENCODING, renderCard, type RenderedCard } from './render-card.ts';
export { warmUpCardRenderer } from './warm-up.ts';
export { cardAltText } from './text/alt-text.ts';
