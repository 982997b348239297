import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from '../http/openapi-document.ts';
import { StaticAsset } from './static-asset.ts';

/** Where the page's files are served; each name carries its content hash. */
export const DOCS_ASSET_PREFIX = '/docs/assets/';

/**
 * The page's own policy: its scripts are the two files below, served by this gateway (no inline
 * script, no eval), and it talks only to this gateway (the document and try-it requests).
 *
 * style-src needs 'unsafe-inline': the renderer (Vue) writes `style="..."` attributes while it
 * renders and its bundle injects `<style>` elements, some without the nonce it offers (tried: with
 * a nonce instead, the first screen alone raised 7 style-attribute and 4 style-element violations).
 * No nonce or hash covers attributes. Styles cannot run code; scripts, connections, frames and
 * forms stay closed.
 *
 * img-src allows `blob:`: try-it shows an image answer (a card asked for with `Accept: image/png`)
 * from a blob URL the page made of the bytes it fetched itself; only images may load from one.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * How Scalar renders the reference. Everything that would reach another host is off: its default
 * fonts (a font CDN), telemetry, the request proxy (try-it requests go straight to this gateway,
 * same origin, so no CORS is involved), the AI agent and MCP integrations, the developer toolbar
 * and the "open in the API client" button (a hosted app). No `defaultHttpClient`: the sample shown
 * first is then an operation's own when it has one (HEAD operations do), and curl otherwise.
 */
const RENDERER_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'direct',
  // A small API: every operation is on the page (and so in reach of the browser's own find) from the start.
  defaultOpenAllTags: true,
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'apiKey' },
};

/**
 * The renderer's stock placeholder in its key field (base64 of a joke, hard-coded in the bundle, not
 * configurable): it looks like a real key, so people paste it or think one was filled in for them.
 */
export const STOCK_KEY_PLACEHOLDER = 'QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT';
/** What the key field says instead: empty until the reader pastes a key, and where keys come from. */
export const KEY_FIELD_PLACEHOLDER = 'Paste your API key (from the account area, /account)';

/**
 * Starts the renderer; served as a file, so the CSP needs no inline script. It loads the bundle
 * itself, after telling the bundle's zod to skip its "can I use eval?" probe: the probe's
 * `Function('')` would be refused by the CSP (and reported as a violation) even though nothing
 * needs it. The mount point is `#reference`: on an element with id `api-reference` the bundle would
 * mount a second, empty reference of its own.
 */
function bootstrapScript(rendererUrl: string): string {
  return `'use strict';
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
const renderer = document.createElement('script');
renderer.src = ${JSON.stringify(rendererUrl)};
renderer.onload = () => Scalar.createApiReference('#reference', ${JSON.stringify(RENDERER_CONFIGURATION)});
document.head.append(renderer);
// The key field is drawn (and drawn again) by the renderer; each time, its stock placeholder is replaced.
const stockPlaceholder = 'input[placeholder=' + ${JSON.stringify(JSON.stringify(STOCK_KEY_PLACEHOLDER))} + ']';
new MutationObserver(() => {
  for (const input of document.querySelectorAll(stockPlaceholder)) input.placeholder = ${JSON.stringify(KEY_FIELD_PLACEHOLDER)};
}).observe(document.documentElement, { subtree: true, childList: true });
`;
}

/**
 * Our few corrections to the renderer's layout, as a served stylesheet. On a phone, the top bar
 * shows the current section's title on one line without letting it shrink: a long summary widens
 * the whole page past the screen. It is cut with an ellipsis instead.
 */
const STYLESHEET = `.t-doc__header header .whitespace-nowrap { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

let rendererAsset: StaticAsset | undefined;

/**
 * Scalar's standalone browser bundle (one self-contained script, ~4 MB), read from its npm package
 * once per process, hashed and (on demand) compressed once: tests build many apps in one process.
 */
function rendererBundle(): StaticAsset {
  if (!rendererAsset) {
    // The package's exports name only its ESM entry (dist/index.js); the bundle sits beside it.
    const path = fileURLToPath(new URL('./browser/standalone.js', import.meta.resolve('@scalar/api-reference')));
    rendererAsset = new StaticAsset('api-reference', 'js', 'text/javascript; charset=utf-8', readFileSync(path));
  }
  return rendererAsset;
}

export interface DocsSite {
  html: string;
  /** By file name under DOCS_ASSET_PREFIX. */
  assets: ReadonlyMap<string, StaticAsset>;
  /** `/v1/openapi.json`: the document as served, its ETag and compressed forms made once per deploy. */
  openApiDocument: StaticAsset;
}

/** The `/docs` page, the files it loads and the document it renders, made once at boot: they change only with a deploy. */
export function loadDocsSite(document: OpenApiDocument): DocsSite {
  const { title } = document.info;
  const renderer = rendererBundle();
  const bootstrap = new StaticAsset('docs-bootstrap', 'js', 'text/javascript; charset=utf-8', Buffer.from(bootstrapScript(`${DOCS_ASSET_PREFIX}${renderer.fileName}`)));
  const stylesheet = new StaticAsset('docs', 'css', 'text/css; charset=utf-8', Buffer.from(STYLESHEET));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_ASSET_PREFIX}${stylesheet.fileName}">
<title>${escapeHtml(title)} — API reference</title>
</head>
<body>
<noscript>This reference needs JavaScript. The machine-readable description is <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="reference"></div>
<script src="${DOCS_ASSET_PREFIX}${bootstrap.fileName}"></script>
</body>
</html>
`;
  return {
    html,
    assets: new Map([renderer, bootstrap, stylesheet].map((asset) => [asset.fileName, asset])),
    // Served at its fixed URL, so the hashed file name goes unused; the ETag is what revalidates it.
    openApiDocument: new StaticAsset('openapi', 'json', 'application/json; charset=utf-8', Buffer.from(JSON.stringify(document))),
  };
}
