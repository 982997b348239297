/**
 * Untrusted image bytes in, something `ctx.drawImage` accepts out: the only way card code may turn
 * request or profile images into drawables. See decode-image.ts for the order of the checks.
 */
export { CardImageError, type CardImageErrorReason } from './card-image-error.ts';
export { checkImage, type CheckedImage, decodeImage, sniffImageFormat, type DecodedImage, type DecodeImageOptions, type ImageTransform } from './decode-image.ts';
export { MAX_JPEG_SCANS } from './decoder-guards.ts';
export { assertWithinImageLimits, CARD_PIXEL_BUDGET, CardPixelBudget } from './image-limits.ts';
