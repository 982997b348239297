import { imageSizeProblem } from '@utility-api/render-jobs';
import { ImageFetchError } from './image-fetch-error.ts';

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * Refuses, as `too_many_pixels`, a size over the per-image limits of card-options' image rules,
 * checked on the header while the body streams, so that a bomb costs a few dozen bytes instead of
 * its whole body. The card checks the same rules again when it decodes, whatever the fetcher said.
 */
export function assertWithinImageLimits(size: PixelSize, field: string): void {
  const problem = imageSizeProblem(size);
  if (problem !== undefined) throw new ImageFetchError('too_many_pixels', field, problem);
}
