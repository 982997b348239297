/**
 * The canvas-free half of image checking: format by magic bytes, dimensions from the header and the
 * pixel limits. Fetching code imports this (as `@utility-api/card/image-inspection`) to refuse a
 * bomb or a non-image while bytes are still arriving, without loading node-canvas.
 */
export { CardImageError, type CardImageErrorReason } from './card-image-error.ts';
export { detectImageFormat, sniffImageFormat, type ImageFormat } from './image-format.ts';
export { readImageHeader, type ImageHeader } from './image-header.ts';
export { assertWithinImageLimits, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './image-limits.ts';
