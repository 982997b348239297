import { type ImageFormat, judgeImageFormat } from '@utility-api/render-jobs';
import { ImageFetchError } from './image-fetch-error.ts';

/**
 * The accepted format a body is (card-options' image rules), or `unsupported_format`. Called once
 * at least IMAGE_SNIFF_LENGTH bytes are in (or the body ended shorter).
 */
export function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  const judged = judgeImageFormat(bytes);
  if ('problem' in judged) throw new ImageFetchError('unsupported_format', field, judged.problem);
  return judged.format;
}
