/** The only way card code turns untrusted image bytes into drawables (decode-image.ts says how). */
export { CardImageError, type CardImageErrorReason } from './card-image-error.ts';
export { assertWithinImageLimits, CARD_PIXEL_BUDGET, CardPixelBudget, checkImage, type CheckedImage, decodeImage } from './decode-image.ts';
export { sniffImageFormat, type DecodedImage, type DecodeImageOptions, type ImageTransform } from './decode-image.ts';
export { MAX_JPEG_SCANS } from './decoder-guards.ts';
