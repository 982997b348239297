import type { Router } from '@koa/router';
import accepts from 'accepts';
import type { GatewayState } from '../http/request-pipeline.ts';
import { IMMUTABLE_ASSET, loadStaticBundle, sendStaticFile } from '../http/static-bundle.ts';

/** The page runs nothing: its one stylesheet (the playground's) is all it loads. */
const HOME_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const ASSET_PREFIX = '/home/assets';

/** Where a newcomer goes from `/`, as links on the page and as JSON for programs. */
const DIRECTORY = {
  name: 'Utility API',
  account: '/account',
  playground: '/playground',
  docs: '/docs',
  openapi: '/v1/openapi.json',
  health: '/readyz',
  getAKey: 'Sign in to the account area (/account) and make a key; send it as the Authorization header of every /v1/ request.',
} as const;

/**
 * `GET /`: a small page linking the account area (where keys come from), the playground, the docs
 * and the health probe; JSON with the same links when `Accept` prefers `application/json`.
 */
export function mountHomeRoutes(router: Router<GatewayState>): void {
  const { assetVersion, assets, pages } = loadStaticBundle({
    folder: new URL('../../web/home/', import.meta.url),
    prefix: ASSET_PREFIX,
    assets: [{ name: 'playground.css', from: new URL('../../web/playground/playground.css', import.meta.url) }],
    pages: ['index.html'],
  });
  const page = pages.get('index.html')!;
  router.get('/', (ctx) => {
    ctx.vary('Accept');
    // HTML first: no Accept, or a tie, is a browser's page.
    if (accepts(ctx.req).type(['text/html', 'application/json']) === 'application/json') {
      ctx.body = DIRECTORY;
      return;
    }
    ctx.set('Content-Security-Policy', HOME_CONTENT_SECURITY_POLICY);
    sendStaticFile(ctx, page, 'no-cache');
  });
  router.get(`${ASSET_PREFIX}/:version/:file`, (ctx) => {
    const asset = ctx.params.version === assetVersion ? assets.get(ctx.params.file ?? '') : undefined;
    if (!asset) return;
    sendStaticFile(ctx, asset, IMMUTABLE_ASSET);
  });
}
