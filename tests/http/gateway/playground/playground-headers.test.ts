import { readdirSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../../helpers/test-gateway.ts';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const ASSETS_FOLDER = new URL('../../../../services/gateway/web/playground/', import.meta.url);

let app: TestGateway;

test.before(async () => {
  app = await startTestGateway();
});

test.after.always(async () => {
  await app?.close();
});

/** The page without a key, as a browser asks for it. */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });

/**
 * A conditional GET's status. node:http, not fetch: fetch marks a request carrying its own
 * `If-None-Match` as `Cache-Control: no-cache`, which (rightly) bypasses the server's validator check.
 */
function conditionalStatus(path: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(`${app.url}${path}`, { headers: { 'if-none-match': etag } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** Asset URLs the page names: its stylesheet and module, and the modules those import. */
async function assetUrls(html: string): Promise<string[]> {
  const named = [...html.matchAll(/(?:href|src)="(\/playground\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  const found = new Set(named);
  for (const url of named.filter((candidate) => candidate.endsWith('.js'))) {
    for (const imported of await importsOf(url)) found.add(imported);
  }
  return [...found];
}

async function importsOf(url: string, seen = new Set<string>()): Promise<string[]> {
  if (seen.has(url)) return [];
  seen.add(url);
  const source = await (await get(url)).text();
  const imports = [...source.matchAll(/^import .* from '(\.\/[^']+)';$/gm)].map((match) => new URL(match[1]!, `http://host${url}`).pathname);
  return [url, ...(await Promise.all(imports.map((imported) => importsOf(imported, seen)))).flat()];
}

test('the page has its own strict CSP, nosniff, no inline code, and is revalidated on every load', async (t) => {
  const response = await get('/playground');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(response.headers.get('content-security-policy'), CSP);
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  t.is(response.headers.get('x-frame-options'), 'DENY');
  t.is(response.headers.get('referrer-policy'), 'no-referrer');
  t.is(response.headers.get('cache-control'), 'no-cache');
  const etag = response.headers.get('etag');
  t.regex(etag ?? '', /^"[\w-]+"$/, 'a strong ETag');
  const html = await response.text();
  t.notRegex(html, /<script(?![^>]*\bsrc=)/, 'no inline script');
  t.notRegex(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler');
  t.notRegex(html, /https?:\/\//, 'nothing from another origin');
  t.false(html.includes('{{ASSETS}}'), 'the asset folder is filled in');

  t.is(await conditionalStatus('/playground', etag!), 304);
  const head = await fetch(`${app.url}/playground`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-security-policy'), CSP);
});

test('every asset the page loads is served from a versioned folder with its type, nosniff and year-long caching', async (t) => {
  const html = await (await get('/playground')).text();
  const urls = await assetUrls(html);
  const served = readdirSync(ASSETS_FOLDER).filter((name) => name !== 'index.html');
  t.deepEqual(urls.map((url) => url.split('/').pop()).sort(), [...served].sort(), 'the page loads every asset file, and each is served');
  const folders = new Set(urls.map((url) => url.split('/').slice(0, -1).join('/')));
  t.is(folders.size, 1, 'one version folder');
  for (const url of urls) {
    const response = await get(url);
    t.is(response.status, 200, url);
    t.is(response.headers.get('content-type'), url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', url);
    t.is(response.headers.get('x-content-type-options'), 'nosniff');
    t.is(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const etag = response.headers.get('etag')!;
    t.is(await conditionalStatus(url, etag), 304);
  }
});

test('other versions, unknown files and paths outside the folder are 404 JSON errors', async (t) => {
  const html = await (await get('/playground')).text();
  const main = /src="(\/playground\/assets\/[^"]+\/main\.js)"/.exec(html)![1]!;
  const folder = main.slice(0, main.lastIndexOf('/'));
  for (const path of [
    '/playground/assets/0000000000000000/main.js',
    `${folder}/index.html`,
    `${folder}/nope.js`,
    `${folder}/..%2F..%2Fplayground-routes.ts`,
    `${folder}/%2e%2e%2fplayground-routes.ts`,
    '/playground/assets/main.js',
  ]) {
    const response = await get(path);
    t.is(response.status, 404, path);
    t.is(response.headers.get('content-type'), 'application/json; charset=utf-8', path);
    t.is(response.headers.get('cache-control'), 'no-store', path);
  }
});
