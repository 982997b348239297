import type { CardProfile } from '@utility-api/card';
import type { Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import { mediaKeyForPng, type RenderJobPayload, type RenderJobResult } from '@utility-api/render-jobs';
import type { CardRenderPool } from './card-pool/card-render-pool.ts';
import { asRenderFailure } from './render-failures.ts';
import type { RenderMetrics } from './render-metrics.ts';

/** Where a card's profile comes from: Discord with a bot token, else the user id alone. */
export interface ProfileSource {
  resolveProfile(userId: string): Promise<CardProfile>;
}

/** The remote images named in one request; the safe-fetch module stands behind it. */
export interface RequestImages {
  fetchImage(url: string, field: string): Promise<Buffer>;
  /** Body bytes read so far for this card's images (redirects read none), for the logs. */
  readonly bytesRead: number;
  /** Stops the fetches still running: the card failed and needs none of them. */
  cancel(): void;
}

export interface RenderJobProcessorParts {
  profiles: ProfileSource;
  /**
   * A fetcher for one card's request images, made fresh per job: a URL named by several fields is
   * fetched once, and all of them share the card's byte budget (safe-fetch's FetchSession).
   */
  requestImages: () => RequestImages;
  pool: CardRenderPool;
  store: MediaStore;
  logger: Logger;
  metrics: RenderMetrics;
}

/**
 * One render job from payload to stored PNG. Both run modes call this: the renderer service from
 * its BullMQ worker, the embedded gateway from its in-process queue. Every failure leaves as a
 * RenderFailureError (permanent or retryable) or an unexpected error, which callers retry.
 */
export interface RenderJobProcessor {
  process(payload: RenderJobPayload, context?: { jobId?: string; attempt?: number }): Promise<RenderJobResult>;
}

export function createRenderJobProcessor(parts: RenderJobProcessorParts): RenderJobProcessor {
  return {
    async process(payload, context = {}) {
      const log = parts.logger.child({ jobId: context.jobId, requestId: payload.requestId, userId: payload.userId });
      const timings: Record<string, number> = {};
      const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
        const started = performance.now();
        try {
          return await work();
        } finally {
          timings[phase] = performance.now() - started;
        }
      };
      const requestImages = parts.requestImages();
      try {
        const { options } = payload;
        const [profile, background, customBadges] = await Promise.all([
          timed('profile', () => parts.profiles.resolveProfile(payload.userId)),
          timed('background', async () =>
            options.customBackground === undefined ? undefined : requestImages.fetchImage(options.customBackground, 'customBackground'),
          ),
          timed('badges', async () =>
            options.customBadges === undefined || options.removeBadges === true
              ? undefined
              : Promise.all(options.customBadges.map((url, index) => requestImages.fetchImage(url, `customBadges.${index}`))),
          ),
        ]);
        const card = await timed('render', () => parts.pool.render({ profile, options, images: { background, customBadges } }));
        timings.draw = card.timings.draw;
        timings.encode = card.timings.encode;
        const mediaKey = mediaKeyForPng(card.png);
        await timed('store', () => parts.store.put(mediaKey, card.png));
        parts.metrics.phases(timings);
        log.info({ mediaKey, bytes: card.png.length, imageBytes: requestImages.bytesRead, timings, warnings: card.warnings }, 'card rendered');
        return { mediaKey, width: card.width, height: card.height, bytes: card.png.length, timings, warnings: card.warnings };
      } catch (error) {
        // One image refused (or the profile failing) fails the card: its other downloads stop here.
        requestImages.cancel();
        parts.metrics.imageFailed(error);
        const failure = asRenderFailure(error);
        if (failure) {
          log.warn({ code: failure.failure.code, permanent: failure.permanent, imageBytes: requestImages.bytesRead, err: error }, 'card render failed');
          throw failure;
        }
        log.error({ err: error, attempt: context.attempt }, 'card render failed unexpectedly');
        throw error;
      }
    },
  };
}
