import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Router } from '@koa/router';
import { ApiError } from '../errors/api-error.ts';
import type { GatewayContext, GatewayState } from '../http/request-pipeline.ts';

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

const TEXT_TYPES = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' } as const;

/** The files under `assets/` the page may load; nothing else in the folder is served. */
const ASSET_NAMES = ['playground.css', 'main.js', 'dom.js', 'controls.js', 'schema-form.js', 'preview.js', 'snippets.js'] as const;

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

function readAsset(name: string): Buffer {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url));
}

const strongEtag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/**
 * The assets live under `/playground/assets/<version>/`, where the version is a hash of all of them:
 * a deploy that changes any file changes every URL, so the files can be cached for a year while the
 * HTML (revalidated on every load, cheaply with its ETag) always names the matching set. The
 * modules import each other by relative names, which stay inside the same version folder.
 */
function loadPlayground() {
  const assets = new Map<string, StaticFile>();
  const version = createHash('sha256');
  for (const name of ASSET_NAMES) {
    const body = readAsset(name);
    version.update(name).update(body);
    const extension = name.slice(name.lastIndexOf('.')) as keyof typeof TEXT_TYPES;
    assets.set(name, { body, type: TEXT_TYPES[extension], etag: strongEtag(body) });
  }
  const assetVersion = version.digest('base64url').slice(0, 16);
  const html = Buffer.from(readAsset('index.html').toString('utf8').replaceAll('{{ASSETS}}', `/playground/assets/${assetVersion}`));
  return { assetVersion, assets, page: { body: html, type: 'text/html; charset=utf-8', etag: strongEtag(html) } satisfies StaticFile };
}

/** Sends a file with its validator; `If-None-Match` naming it is a 304. */
function sendFile(ctx: GatewayContext, file: StaticFile, cacheControl: string): void {
  ctx.set({ 'Cache-Control': cacheControl, ETag: file.etag });
  ctx.type = file.type;
  // Koa only compares validators for a 2xx response.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = file.body;
}

function notFound(): ApiError {
  return new ApiError(404, 'not_found', 'No such playground file. Reload /playground: it names the files of the running version.');
}

/**
 * `GET /playground`: the card playground, a page that builds its form from the OpenAPI document
 * and previews the card with the visitor's own key (kept in the page, sent only to this API).
 * Public, like `/docs`: it holds nothing secret, and every card it draws needs a key.
 */
export function mountPlaygroundRoutes(router: Router<GatewayState>): void {
  const { assetVersion, assets, page } = loadPlayground();
  router.get('/playground', (ctx) => {
    ctx.set({ 'Content-Security-Policy': PLAYGROUND_CONTENT_SECURITY_POLICY });
    sendFile(ctx, page, 'no-cache');
  });
  router.get('/playground/assets/:version/:file', (ctx) => {
    const asset = ctx.params.version === assetVersion ? assets.get(ctx.params.file ?? '') : undefined;
    if (!asset) throw notFound();
    sendFile(ctx, asset, 'public, max-age=31536000, immutable');
  });
}
