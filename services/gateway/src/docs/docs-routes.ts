import type { Router } from '@koa/router';
import type { GatewayState } from '../http/request-pipeline.ts';
import { DOCS_ASSET_PREFIX, DOCS_CONTENT_SECURITY_POLICY, type DocsSite } from './docs-site.ts';
import type { ContentEncoding } from './static-asset.ts';

/** The page itself is small and names its files by hash, so a short cache lets a deploy show quickly. */
const PAGE_CACHE_CONTROL = 'public, max-age=300';
/** A hashed file name never changes content. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `/docs`, the reference page under its own CSP, and `/docs/assets/<name>.<hash>.js`, the files it
 * loads: served from memory, compressed when the client takes br or gzip, with an ETag.
 */
export function mountDocsRoutes(router: Router<GatewayState>, site: DocsSite): void {
  router.get('/docs', (ctx) => {
    ctx.set({ 'Cache-Control': PAGE_CACHE_CONTROL, 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY });
    ctx.type = 'text/html';
    ctx.body = site.html;
  });

  router.get(`${DOCS_ASSET_PREFIX}:file`, async (ctx) => {
    const asset = site.assets.get(ctx.params.file ?? '');
    // An unknown name falls through to the pipeline's JSON 404.
    if (!asset) return;
    ctx.set({ 'Cache-Control': ASSET_CACHE_CONTROL, Vary: 'Accept-Encoding' });
    ctx.type = asset.contentType;
    ctx.etag = asset.etag;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    if (encoding === 'br' || encoding === 'gzip') {
      const body = await asset.encoded(encoding satisfies ContentEncoding).catch(() => undefined);
      if (body) {
        ctx.set('Content-Encoding', encoding);
        ctx.body = body;
        return;
      }
    }
    ctx.body = asset.body;
  });
}
