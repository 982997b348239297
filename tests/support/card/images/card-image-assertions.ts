import type { ExecutionContext } from 'ava';
import { CardImageError, type CardImageErrorReason } from '../../../../packages/card/src/images/card-image-error.ts';

/**
 * Checks the promise rejects with a CardImageError of `reason` for `field`, whose message names the
 * field first and leaks nothing internal (no paths, no library or JavaScript error names).
 */
export async function rejectsWithCardImageError(
  t: ExecutionContext,
  promise: Promise<unknown>,
  reason: CardImageErrorReason,
  field: string,
): Promise<CardImageError | undefined> {
  const error = await t.throwsAsync(promise, { instanceOf: CardImageError });
  if (error === undefined) return undefined;
  checkCardImageError(t, error, reason, field);
  return error;
}

/** The synchronous twin of {@link rejectsWithCardImageError}, for the header and structure readers. */
export function throwsCardImageError(t: ExecutionContext, action: () => unknown, reason: CardImageErrorReason, field: string): CardImageError | undefined {
  const error = t.throws(action, { instanceOf: CardImageError });
  if (error === undefined) return undefined;
  checkCardImageError(t, error, reason, field);
  return error;
}

function checkCardImageError(t: ExecutionContext, error: CardImageError, reason: CardImageErrorReason, field: string): void {
  t.is(error.reason, reason, error.message);
  t.is(error.field, field);
  t.true(error.message.startsWith(`${field}: `), error.message);
  t.notRegex(error.message, /\/|\\|node_modules|\.(?:ts|js|cc)\b|Error|errno|libpng|libjpeg|giflib|cairo|wasm|zlib/i);
}
