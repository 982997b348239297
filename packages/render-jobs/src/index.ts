/** The contract between the gateway and the renderers: nothing else passes between them. */
export {
  CARD_LIMITS,
  DEFAULT_BACKGROUND_BRIGHTNESS,
  DEFAULT_DATE_LOCALE,
  PRESENCE_STATUSES,
  cardOptionsSchema,
  rankDataSchema,
} from './card-options.ts';
export type { CardOptions, PresenceStatus, RankData } from './card-options.ts';
export { HEX_COLOR, hexColorField, parseHexColor, type Rgb } from './hex-color.ts';
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
export { RENDER_JOB_NAME, RENDER_QUEUE_NAME } from './render-queue-name.ts';
export { renderJobPayloadSchema, snowflakeSchema, SNOWFLAKE_PATTERN, type RenderJobPayload } from './render-job-payload.ts';
export { renderJobResultSchema, type RenderJobResult } from './render-job-result.ts';
export {
  decodeRenderFailure,
  encodeRenderFailure,
  RENDER_FAILURE_CODES,
  RenderFailureError,
  type RenderFailure,
  type RenderFailureCode,
} from './render-failure.ts';
export { CARD_DESIGN_VERSION, mediaKeyForPng, renderJobId, uuidFromDigest } from './render-key.ts';
export { RENDER_JOB_OPTIONS, RENDER_RETENTION } from './render-job-options.ts';
