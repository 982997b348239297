/**
 * Why an untrusted image was refused. The gateway answers all three with HTTP 422:
 * - `unsupported_format`: the bytes are not PNG, JPEG, GIF or WebP (whatever the Content-Type said);
 * - `too_large`: the header declares more pixels than a card image may have, refused before decoding;
 * - `corrupt`: the bytes are truncated, malformed, or the decoder gave up on them.
 */
export type CardImageErrorReason = 'unsupported_format' | 'too_large' | 'corrupt';

/**
 * An image from a card request could not be used. `message` is written for the API user: it starts
 * with the field the image came from and never carries paths, library messages or stack details, so
 * the gateway may show it as is.
 */
export class CardImageError extends Error {
  override readonly name = 'CardImageError';
  /** What was wrong with the image. */
  readonly reason: CardImageErrorReason;
  /** Which request input the image came from, e.g. `customBackground`, `customBadges.2`, `avatar`. */
  readonly field: string;
  /** The public-safe sentence about the problem, without the field (`message` is `field: detail`). */
  readonly detail: string;

  constructor(reason: CardImageErrorReason, field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.reason = reason;
    this.field = field;
    this.detail = detail;
  }
}

/** Shorthand for the most common refusal: the bytes do not hold a well-formed image. */
export function corruptImage(field: string, detail: string): CardImageError {
  return new CardImageError('corrupt', field, detail);
}
