import type { Router } from '@koa/router';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/request-pipeline.ts';
import { IMMUTABLE_ASSET, loadStaticBundle, sendStaticFile } from '../http/static-bundle.ts';

/**
 * Everything the page loads comes from this gateway: its HTML, its script modules and its one
 * stylesheet. It talks only to this origin (the OpenAPI document and `POST /v1/profile-image`),
 * shows the card from a `blob:` URL, and has no inline script or style, so nothing else may run.
 */
const PLAYGROUND_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The files under `assets/` the page may load; nothing else in the folder is served. */
const ASSET_NAMES = ['playground.css', 'main.js', 'dom.js', 'controls.js', 'schema-form.js', 'preview.js', 'snippets.js', 'permalink.js'] as const;

function notFound(): ApiError {
  return new ApiError('not_found', 'No such playground file. Reload /playground: it names the files of the running version.');
}

/**
 * `GET /playground`: the card playground, a page that builds its form from the OpenAPI document
 * and previews the card with the visitor's own key (kept in the page, sent only to this API).
 * Public, like `/docs`: it holds nothing secret, and every card it draws needs a key.
 */
export function mountPlaygroundRoutes(router: Router<GatewayState>): void {
  const { assetVersion, assets, pages } = loadStaticBundle({ folder: new URL('../../web/playground/', import.meta.url), prefix: '/playground/assets', assets: ASSET_NAMES, pages: ['index.html'] });
  const page = pages.get('index.html')!;
  router.get('/playground', (ctx) => {
    ctx.set({ 'Content-Security-Policy': PLAYGROUND_CONTENT_SECURITY_POLICY });
    sendStaticFile(ctx, page, 'no-cache');
  });
  router.get('/playground/assets/:version/:file', (ctx) => {
    const asset = ctx.params.version === assetVersion ? assets.get(ctx.params.file ?? '') : undefined;
    if (!asset) throw notFound();
    sendStaticFile(ctx, asset, IMMUTABLE_ASSET);
  });
}
