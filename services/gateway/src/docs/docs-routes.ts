import type { Router, RouterContext } from '@koa/router';
import type { GatewayState } from '../http/request-pipeline.ts';
import { DOCS_ASSET_PREFIX, DOCS_CONTENT_SECURITY_POLICY, type DocsSite } from './docs-site.ts';
import type { ContentEncoding, StaticAsset } from './static-asset.ts';

/** The page itself is small and names its files by hash, so a short cache lets a deploy show quickly. */
const PAGE_CACHE_CONTROL = 'public, max-age=300';
/** A hashed file name never changes content. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The OpenAPI document keeps its one URL across deploys: cached briefly, then revalidated by ETag. */
const OPENAPI_CACHE_CONTROL = 'public, max-age=300';

/**
 * Answers with `asset`: a 304 when If-None-Match names its ETag, else its bytes, br or gzip
 * compressed when the client takes either (compressed once, then kept by the asset).
 */
async function serveAsset(ctx: RouterContext<GatewayState>, asset: StaticAsset, cacheControl: string): Promise<void> {
  ctx.set({ 'Cache-Control': cacheControl, Vary: 'Accept-Encoding' });
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
}

/**
 * `/docs`, the reference page under its own CSP; `/docs/assets/<name>.<hash>.js`, the files it
 * loads; and `/v1/openapi.json`, the document it renders (166 KB of JSON, a tenth of that
 * compressed): served from memory, compressed when the client takes br or gzip, with an ETag.
 */
export function mountDocsRoutes(router: Router<GatewayState>, site: DocsSite): void {
  router.get('/v1/openapi.json', (ctx) => serveAsset(ctx, site.openApiDocument, OPENAPI_CACHE_CONTROL));

  router.get('/docs', (ctx) => {
    ctx.set({ 'Cache-Control': PAGE_CACHE_CONTROL, 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY });
    ctx.type = 'text/html';
    ctx.body = site.html;
  });

  router.get(`${DOCS_ASSET_PREFIX}:file`, async (ctx) => {
    const asset = site.assets.get(ctx.params.file ?? '');
    // An unknown name falls through to the pipeline's JSON 404.
    if (!asset) return;
    await serveAsset(ctx, asset, ASSET_CACHE_CONTROL);
  });
}
