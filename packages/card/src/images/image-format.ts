import { type ImageFormat, judgeImageFormat } from '@utility-api/render-jobs';
import { CardImageError } from './card-image-error.ts';

/** The accepted format the bytes are (card-options' image rules), or `unsupported_format`. */
export function sniffImageFormat(bytes: Buffer, field: string): ImageFormat {
  const judged = judgeImageFormat(bytes);
  if ('problem' in judged) throw new CardImageError('unsupported_format', field, judged.problem);
  return judged.format;
}
