import { CardImageError } from '@utility-api/card';
import { DiscordUnavailableError, UnknownUserError } from '@utility-api/discord-users';
import { StorageUnavailableError } from '@utility-api/media-store';
import { RENDER_FAILURE_CODES, RenderFailureError } from '@utility-api/render-jobs';
import { ImageFetchError } from '@utility-api/safe-fetch';
import { RenderWorkerLostError } from './card-pool/card-render-pool.ts';

/**
 * Turns what went wrong into the failure the client hears. Bad input, unknown users and cards
 * that lost their render worker are permanent (retrying cannot help, the job fails at once); storage and Discord trouble are worth
 * the queue's retries. Anything else is unexpected: undefined, and the caller retries it as is.
 */
export function asRenderFailure(error: unknown): RenderFailureError | undefined {
  if (error instanceof RenderFailureError) return error;
  if (error instanceof CardImageError || error instanceof ImageFetchError) {
    return new RenderFailureError(
      { code: 'image_unusable', status: RENDER_FAILURE_CODES.image_unusable, message: error.message, field: error.field },
      { permanent: true, cause: error },
    );
  }
  if (error instanceof RenderWorkerLostError) {
    // Permanent: the same card would most likely crash the next worker too, on this renderer or
    // another (BullMQ then fails the job at once; the gateway remembers the failure).
    return new RenderFailureError(
      {
        code: 'render_failed',
        status: RENDER_FAILURE_CODES.render_failed,
        message: 'The card could not be rendered: it crashed or exceeded its memory or time budget.',
        retryAfterSeconds: 1,
      },
      { permanent: true, cause: error },
    );
  }
  if (error instanceof UnknownUserError) {
    return new RenderFailureError(
      { code: 'unknown_user', status: RENDER_FAILURE_CODES.unknown_user, message: 'No Discord user has this id.', field: 'userId' },
      { permanent: true, cause: error },
    );
  }
  if (error instanceof DiscordUnavailableError) {
    return new RenderFailureError(
      {
        code: 'discord_unavailable',
        status: error.status,
        message: error.message,
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      },
      // Waiting out a rate limit inside the queue would only hold a renderer; the client may retry.
      { permanent: error.retryAfterSeconds !== undefined, cause: error },
    );
  }
  if (error instanceof StorageUnavailableError) {
    return new RenderFailureError(
      { code: 'storage_unavailable', status: RENDER_FAILURE_CODES.storage_unavailable, message: 'Image storage is unavailable. Please retry shortly.', retryAfterSeconds: 2 },
      { permanent: false, cause: error },
    );
  }
  return undefined;
}
