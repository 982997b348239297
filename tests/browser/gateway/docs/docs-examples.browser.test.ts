import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../helpers/browser.ts';
import { loadContract } from '../../../helpers/openapi-contract.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';
import { documentedOperations, openDocs, operationSelector, type WatchedPage } from '../../../support/gateway/docs/docs-browser.ts';

/**
 * Every request example the reference shows runs as copied: the curl sample of each operation is
 * read from the rendered page, its key placeholder replaced by a real key, and run by bash with the
 * real curl against a whole gateway (profile-image included). Each must get the documented success.
 */

const run = promisify(execFile);

declare const document: { querySelector(selector: string): { scrollIntoView(): void } | null };

/** What Scalar writes where the reader's key goes. */
const KEY_PLACEHOLDER = 'YOUR_SECRET_TOKEN';

let gateway: TestGateway;
let browser: Browser;
let watched: WatchedPage;
/**
 * curl reads its config from $CURL_HOME/.curlrc: it prints the status after the body, so the
 * sample itself runs byte for byte as the page shows it.
 */
const curlHome = mkdtempSync(join(tmpdir(), 'docs-curl-'));
writeFileSync(join(curlHome, '.curlrc'), 'write-out = "\\n%{http_code}"\nmax-time = 60\n');

test.before(async () => {
  gateway = await startTestGateway({ render: true });
  browser = await launchBrowser();
  watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
});
test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
  rmSync(curlHome, { recursive: true, force: true });
});

async function curlSample(method: string, path: string): Promise<string> {
  const section = operationSelector(method, path);
  await watched.page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView(), section);
  const code = await watched.page.waitForSelector(`${section} code.language-curl`);
  return (await code?.evaluate((element) => element.textContent ?? '')) ?? '';
}

test.serial('every operation\'s curl example, copied from the page, gets its documented 2xx', async (t) => {
  // Nineteen curl runs, two of them card renders: longer than ava's default 60 s on a loaded machine.
  t.timeout(180_000);
  const operations = await documentedOperations(gateway.url);
  t.true(operations.length >= 15, `${operations.length} operations`);
  const contract = await loadContract(gateway.url);
  for (const { method, path } of operations) {
    // Not runnable as copied: a signed card link needs a signature the page cannot make (the curl
    // would be its documented 403), and a template's path names an id no account has (its 404).
    if (path === '/v1/card-link' || path.includes('{id}')) continue;
    const sample = await curlSample(method, path);
    const urls = sample.match(/https?:\/\/[^\s'"]+/g) ?? [];
    t.true(sample.startsWith('curl ') && urls.length > 0 && urls.every((url) => url.startsWith(`${gateway.url}/`)), `${method} ${path} targets this gateway:\n${sample}`);
    t.is(sample.split(KEY_PLACEHOLDER).length, 2, `${method} ${path} carries the key placeholder once:\n${sample}`);
    const command = sample.replace(KEY_PLACEHOLDER, TEST_API_KEY);
    const { stdout } = await run('bash', ['-c', command], { env: { ...process.env, CURL_HOME: curlHome }, maxBuffer: 16 * 1024 * 1024 });
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    const body = stdout.slice(0, stdout.lastIndexOf('\n'));
    const documented = Object.keys(contract.document.paths[path][method.toLowerCase()].responses).filter((code) => code.startsWith('2'));
    t.true(documented.includes(String(status)), `${method} ${path}: ${status} is not a documented success (${documented.join(', ')}):\n${command}\n${body.slice(0, 500)}`);
    if (method !== 'HEAD' && status !== 204) {
      t.deepEqual(contract.check(path, method, status, JSON.parse(body)), [], `${method} ${path}: the answer matches its schema`);
    }
  }
  t.deepEqual(await watched.cspViolations(), []);
  t.deepEqual(watched.foreignRequests, []);
});

test.serial('every response example in the document matches its own schema', async (t) => {
  const contract = await loadContract(gateway.url);
  let checked = 0;
  for (const [path, item] of Object.entries(contract.document.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        const example = response.content?.['application/json']?.example;
        if (example === undefined) continue;
        checked++;
        t.deepEqual(contract.check(path, method, Number(status), example), [], `${method} ${path} ${status}`);
      }
      // The JSON success (200, or 201 for a template made); none for a 204 or an image-only answer (the card link).
      const success = operation.responses['200'] ?? operation.responses['201'];
      if (!['head', 'options'].includes(method) && success?.content?.['application/json']) t.truthy(success.content['application/json'].example, `${method} ${path} has a success example`);
    }
  }
  t.true(checked >= 15, `${checked} examples`);
});
