import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GatewayContext } from './request-pipeline.ts';

/** A file served from memory with its strong validator. */
export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

const strongEtag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

function staticFile(body: Buffer, name: string): StaticFile {
  const type = TYPES[name.slice(name.lastIndexOf('.'))];
  if (type === undefined) throw new Error(`no content type for ${name}`);
  return { body, type, etag: strongEtag(body) };
}

/** An asset: a file of `folder` by its name, or one read from elsewhere (a module two pages share). */
export type AssetSource = string | { name: string; from: URL };

/**
 * A page's files, read once at boot. The assets live under `<prefix>/<version>/`, where the
 * version is a hash of all of them: a deploy that changes any file changes every URL, so the files
 * can be cached for a year while the HTML pages (revalidated on every load, cheaply with their
 * ETag) always name the matching set: `{{ASSETS}}` in a page becomes that folder. Modules import
 * each other by relative names, which stay inside the same version folder.
 */
export function loadStaticBundle(options: { folder: URL; prefix: string; assets: readonly AssetSource[]; pages: readonly string[] }) {
  const assets = new Map<string, StaticFile>();
  const version = createHash('sha256');
  for (const source of options.assets) {
    const name = typeof source === 'string' ? source : source.name;
    const body = readFileSync(typeof source === 'string' ? new URL(source, options.folder) : source.from);
    version.update(name).update(body);
    assets.set(name, staticFile(body, name));
  }
  const assetVersion = version.digest('base64url').slice(0, 16);
  const pages = new Map<string, StaticFile>();
  for (const name of options.pages) {
    const html = readFileSync(new URL(name, options.folder), 'utf8').replaceAll('{{ASSETS}}', `${options.prefix}/${assetVersion}`);
    pages.set(name, staticFile(Buffer.from(html), name));
  }
  return { assetVersion, assets, pages };
}

/** Sends a file with its validator; `If-None-Match` naming it is a 304. */
export function sendStaticFile(ctx: GatewayContext, file: StaticFile, cacheControl: string): void {
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

/** What versioned assets are cached for: their URL changes with their content. */
export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';
