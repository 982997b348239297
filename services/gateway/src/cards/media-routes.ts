import type { Router } from '@koa/router';
import { StorageUnavailableError, type MediaObject, type MediaStore } from '@utility-api/media-store';
import { parseMediaName } from '@utility-api/render-jobs';
import { ApiError, storageUnavailableError } from '../http/api-error.ts';
import type { GatewayContext, GatewayState } from '../http/request-pipeline.ts';

/**
 * Media names are content hashes: the bytes behind a URL never change, so caches may keep them.
 * Chat clients show the cards on other origins, so the image may be embedded cross-origin.
 */
const PUBLIC_IMAGE_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

function notFound(): ApiError {
  return new ApiError('not_found', 'No such image. Card images expire; request the card again for a new URL.');
}

function describeImage(ctx: GatewayContext, object: MediaObject): void {
  ctx.set({ ...PUBLIC_IMAGE_HEADERS, ETag: object.etag, 'Last-Modified': object.lastModified.toUTCString() });
  ctx.type = object.contentType;
  ctx.length = object.size;
}

/**
 * `GET`/`HEAD /media/<uuid>.<png|webp|avif|gif>`, public: chat clients fetch it without a key.
 * Streams from the media store with the format's Content-Type and a strong ETag, and answers
 * `If-None-Match` with 304.
 */
export function mountMediaRoutes(router: Router<GatewayState>, store: MediaStore): void {
  router.get('/media/:file', async (ctx) => {
    // `<uuid>.<format>`, lowercase: anything else (other extensions, `..`, encoded slashes) is simply unknown.
    const name = parseMediaName(ctx.params.file ?? '');
    if (name === undefined) throw notFound();
    const { key, format } = name;
    try {
      if (ctx.method === 'HEAD' || ctx.get('If-None-Match') !== '') {
        // Validators and HEAD need only the metadata: no stream is opened for a 304.
        const object = await store.stat(key, format);
        if (!object) throw notFound();
        describeImage(ctx, object);
        // Koa only compares validators for a 2xx response.
        ctx.status = 200;
        if (ctx.fresh) {
          ctx.status = 304;
          return;
        }
        if (ctx.method === 'HEAD') return;
      }
      const opened = await store.open(key, format);
      if (!opened) throw notFound();
      describeImage(ctx, opened.object);
      ctx.body = opened.body;
    } catch (error) {
      if (error instanceof StorageUnavailableError) {
        throw storageUnavailableError();
      }
      throw error;
    }
  });
}
