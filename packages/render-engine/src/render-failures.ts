import { ERROR_CATALOGUE } from '@utility-api/api-errors';
import { CardImageError } from '@utility-api/card';
import { DiscordUnavailableError, UnknownUserError } from '@utility-api/discord-users';
import { StorageUnavailableError } from '@utility-api/media-store';
import { RENDER_FAILED, type RenderFailure } from '@utility-api/render-jobs';
import { ImageFetchError } from '@utility-api/safe-fetch';
import { RenderWorkerLostError } from './card-pool/card-render-pool.ts';

/**
 * Turns what went wrong into the failure the client hears: bad input, unknown users and cards that
 * lost their render worker are final; storage and Discord trouble is `retryable` (worth the queue's
 * retries). Anything else is unexpected: undefined, and the caller lets it crash the job.
 */
export function asRenderFailure(error: unknown): RenderFailure | undefined {
  if (error instanceof CardImageError || error instanceof ImageFetchError) {
    return { code: 'image_unusable', status: ERROR_CATALOGUE.image_unusable.status, field: error.field, detail: error.detail };
  }
  // The same card would most likely crash the next worker too, on this renderer or another.
  if (error instanceof RenderWorkerLostError) return RENDER_FAILED;
  if (error instanceof UnknownUserError) {
    return { code: 'unknown_user', status: ERROR_CATALOGUE.unknown_user.status, field: 'userId', detail: 'No Discord user has this id.' };
  }
  if (error instanceof DiscordUnavailableError) {
    // Waiting out a rate limit inside the queue would only hold a renderer; the client may retry.
    const retryAfter = error.retryAfterSeconds === undefined ? { retryable: true } : { retryAfterSeconds: error.retryAfterSeconds };
    return { code: 'discord_unavailable', status: error.status, detail: error.message, ...retryAfter };
  }
  if (error instanceof StorageUnavailableError) {
    return { code: 'storage_unavailable', status: ERROR_CATALOGUE.storage_unavailable.status, detail: 'Image storage is unavailable. Please retry shortly.', retryAfterSeconds: ERROR_CATALOGUE.storage_unavailable.retryAfter, retryable: true };
  }
  return undefined;
}
