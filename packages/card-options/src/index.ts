export {
  CARD_LIMITS,
  DEFAULT_BACKGROUND_BRIGHTNESS,
  DEFAULT_DATE_LOCALE,
  PRESENCE_STATUSES,
  cardOptionsSchema,
  rankDataSchema,
} from './card-options.ts';
export type { CardOptions, PresenceStatus, RankData } from './card-options.ts';
export { hexColorField, normalizeHexColor } from './hex-color.ts';
export { isSupportedDateLocale } from './locale.ts';
export {
  describePixelCount,
  detectImageFormat,
  IMAGE_SNIFF_LENGTH,
  imageSizeProblem,
  judgeImageFormat,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  type ImageFormat,
} from './image-rules.ts';
