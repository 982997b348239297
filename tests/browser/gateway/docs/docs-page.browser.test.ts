import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { PNG } from 'pngjs';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../helpers/browser.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';
import { KEY_FIELD_PLACEHOLDER, STOCK_KEY_PLACEHOLDER } from '../../../../services/gateway/src/docs/docs-site.ts';
import { documentedOperations, openDocs, operationSelector, type WatchedPage } from '../../../support/gateway/docs/docs-browser.ts';

/**
 * The reference as a person sees it, in headless Chromium against a whole gateway (profile-image
 * included): it renders every operation under its CSP without reaching another host, search
 * works, a phone-sized screen does not scroll sideways, and try-it answers from this gateway.
 * Screenshots go to one temp folder (printed; each run overwrites them) for a person to look at.
 */

declare const window: { scrollTo(x: number, y: number): void; innerHeight: number };
declare const document: {
  documentElement: { scrollWidth: number; scrollHeight: number };
  querySelector(selector: string): { scrollIntoView(): void } | null;
  body: { innerText: string };
};

const SCREENSHOTS = join(tmpdir(), 'utility-api-docs-screenshots');

let gateway: TestGateway;
let browser: Browser;
test.before(async (t) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  gateway = await startTestGateway({ render: true });
  browser = await launchBrowser();
  t.log(`docs screenshots: ${SCREENSHOTS}`);
});
test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
});

async function assertClean(t: { deepEqual(actual: unknown, expected: unknown, message?: string): void }, watched: WatchedPage) {
  t.deepEqual(await watched.cspViolations(), [], 'CSP violations');
  t.deepEqual(watched.consoleErrors, [], 'console errors');
  t.deepEqual(watched.pageErrors, [], 'uncaught errors');
  t.deepEqual(watched.foreignRequests, [], 'requests to another host');
}

/** A screenshot that shows something: a fair share of pixels differ from the most common colour. */
function nonBackgroundShare(file: string): number {
  const png = PNG.sync.read(readFileSync(file));
  const counts = new Map<number, number>();
  for (let offset = 0; offset < png.data.length; offset += 4) {
    const colour = png.data.readUInt32BE(offset);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  const pixels = png.data.length / 4;
  return (pixels - background) / pixels;
}

async function sleep(ms: number) {
  // sleep-ok: the scroll walk lets Scalar lay out each screen; the width is read after, not asserted absent.
  await new Promise((resolve) => setTimeout(resolve, ms));
}

test.serial('desktop: every operation is listed and shown, under the CSP, with no request elsewhere', async (t) => {
  const watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
  try {
    const { page } = watched;
    const operations = await documentedOperations(gateway.url);
    t.true(operations.length >= 15, `${operations.length} operations`);
    for (const { method, path } of operations) {
      t.truthy(await page.$(operationSelector(method, path)), `${method} ${path} has a section`);
    }
    const text = await page.evaluate(() => document.body.innerText);
    for (const heading of ['Authentication', 'Errors', 'Rate limits']) t.true(text.includes(heading), heading);

    const file = join(SCREENSHOTS, 'docs-desktop.png');
    await page.screenshot({ path: file });
    t.true(nonBackgroundShare(file) > 0.05, 'the desktop screenshot is not blank');
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

test.serial('the key field starts empty, with a placeholder saying where keys come from instead of the stock fake key', async (t) => {
  const watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
  try {
    const { page } = watched;
    // The field is drawn after the document; wait for it, by its placeholder, as a person would see it.
    await page.waitForSelector(`input[placeholder="${KEY_FIELD_PLACEHOLDER}"]`);
    const keyFields = [KEY_FIELD_PLACEHOLDER, STOCK_KEY_PLACEHOLDER].map((placeholder) => `input[placeholder="${placeholder}"]`).join(', ');
    const fields = await page.$$eval(keyFields, (inputs) => inputs.map((input) => ({ placeholder: input.placeholder, value: input.value })));
    t.true(fields.length >= 1, 'a key field');
    for (const field of fields) t.deepEqual(field, { placeholder: KEY_FIELD_PLACEHOLDER, value: '' });
    t.false((await page.content()).includes(`placeholder="${STOCK_KEY_PLACEHOLDER}"`), 'the stock placeholder is gone everywhere');
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

/** What a reader must find in an operation's section: parameters with examples, body fields, statuses, examples. */
const SHOWN: { method: string; path: string; expected: string[] }[] = [
  {
    method: 'GET',
    path: '/v1/hex-to-rgb',
    expected: ['hex', 'Example#FF5733', 'Status: 200', 'Status: 400', 'Status: 401', 'Status: 429', 'Auth Required', '"mainRgb": "255, 87, 51"'],
  },
  {
    method: 'POST',
    path: '/v1/profile-image/{userId}',
    expected: [
      'Example302050872383242240',
      'Bodyapplication/json',
      'customTag',
      'presenceStatus',
      'rankData',
      'backgroundBrightness',
      'Status: 200',
      'Status: 422',
      'Status: 503',
      '"customTag": "Welcome!"',
    ],
  },
];

test.serial('an operation shows its parameters, body fields, example request, statuses and response example', async (t) => {
  const watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
  try {
    const { page } = watched;
    for (const { method, path, expected } of SHOWN) {
      const section = operationSelector(method, path);
      await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView(), section);
      await page.waitForSelector(`${section} code.language-curl`);
      // textContent, not innerText: the renderer upper-cases some labels with CSS.
      const shown = await page.$eval(section, (element) => element.textContent ?? '');
      for (const text of expected) t.true(shown.includes(text), `${method} ${path} shows ${text}`);
    }
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

test.serial('search finds an endpoint and goes to it', async (t) => {
  const watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
  try {
    const { page } = watched;
    await (await page.waitForSelector('button ::-p-text(Search)'))?.click();
    await page.keyboard.type('coin');
    const result = await page.waitForSelector('[role="dialog"] ::-p-text(Flip a coin)');
    await result?.click();
    await page.waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash.includes('/GET/v1/coin-flip'));
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

test.serial('390 px wide: the page never scrolls sideways, from top to bottom', async (t) => {
  // About 50 screens, each given time to render: longer than ava's default 60 s on a loaded machine.
  t.timeout(180_000);
  const watched = await openDocs(browser, gateway.url, { width: 390, height: 844 });
  try {
    const { page } = watched;
    const file = join(SCREENSHOTS, 'docs-390-top.png');
    await page.screenshot({ path: file });
    t.true(nonBackgroundShare(file) > 0.03, 'the 390 px screenshot is not blank');
    // Scalar renders sections as they come into view: walk the whole page, checking at every screen.
    let widest = 0;
    let where = 0;
    for (let y = 0, steps = 0; steps < 400; steps++) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await sleep(60);
      const { scrollWidth, scrollHeight, innerHeight } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        scrollHeight: document.documentElement.scrollHeight,
        innerHeight: window.innerHeight,
      }));
      if (scrollWidth > widest) [widest, where] = [scrollWidth, y];
      if (y + innerHeight >= scrollHeight) break;
      y += innerHeight;
    }
    t.true(widest <= 390, `the page is ${widest} px wide at scroll ${where}`);
    const section = operationSelector('POST', '/v1/profile-image/{userId}');
    await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView(), section);
    await page.waitForSelector(`${section} code.language-curl`);
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-390-profile-image.png') });
    t.true(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

/** The desktop page with the test key typed into the auth box and the try-it client open on one operation. */
async function openTryIt(method: string, path: string): Promise<WatchedPage> {
  const watched = await openDocs(browser, gateway.url, { width: 1280, height: 900 });
  const { page } = watched;
  const keyInput = await page.waitForSelector('::-p-xpath(//input[ancestor::*[starts-with(normalize-space(.), "Value:")]])');
  await keyInput?.type(TEST_API_KEY);
  const section = operationSelector(method, path);
  await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView(), section);
  await (await page.waitForSelector(`${section} ::-p-text(Test Request)`))?.click();
  return watched;
}

test.serial('try-it: the key typed into the auth box sends GET /v1/coin-flip to this gateway and shows the 200', async (t) => {
  const watched = await openTryIt('GET', '/v1/coin-flip');
  try {
    const { page } = watched;
    const sent = page.waitForRequest((request) => request.url().startsWith(`${gateway.url}/v1/coin-flip`));
    const answered = page.waitForResponse((response) => response.url().startsWith(`${gateway.url}/v1/coin-flip`));
    await (await page.waitForSelector('button ::-p-text(Send)'))?.click();
    t.is((await sent).headers().authorization, TEST_API_KEY);
    t.is((await answered).status(), 200);
    await page.waitForSelector('::-p-text(200 OK)');
    await page.waitForSelector('::-p-text("flipMethod")');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-try-it.png') });
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});

test.serial('try-it: the card operation with Accept picked as image/png shows the card, decoded from a blob: URL, under the CSP', async (t) => {
  t.timeout(120_000);
  const watched = await openTryIt('POST', '/v1/profile-image/{userId}');
  try {
    const { page } = watched;
    // The documented Accept header is a list of its types; JSON (the default) is picked at first.
    await (await page.waitForSelector('[role="dialog"] tr#Accept button[aria-haspopup="menu"]'))?.click();
    await (await page.waitForSelector('[role="menuitem"] ::-p-text(image/png), [role="option"] ::-p-text(image/png)'))?.click();
    await page.waitForSelector('[role="dialog"] tr#Accept button[aria-haspopup="menu"] ::-p-text(image/png)');
    const sent = page.waitForRequest((request) => request.url().startsWith(`${gateway.url}/v1/profile-image/`) && request.method() === 'POST');
    const answered = page.waitForResponse((response) => response.url().startsWith(`${gateway.url}/v1/profile-image/`) && response.request().method() === 'POST');
    await (await page.waitForSelector('button ::-p-text(Send)'))?.click();
    // Only the picked type: Scalar's own list (JSON first) is turned off for this operation.
    t.is((await sent).headers().accept, 'image/png');
    const answer = await answered;
    t.is(answer.status(), 200);
    t.is(answer.headers()['content-type'], 'image/png');
    const image = await page.waitForSelector('[role="dialog"] img[src^="blob:"]');
    // Decoded: the browser knows its pixel size, the card's 900x300.
    await page.waitForFunction((element) => (element as unknown as { complete: boolean; naturalWidth: number }).complete && (element as unknown as { naturalWidth: number }).naturalWidth > 0, {}, image);
    const size = await image?.evaluate((element) => ({ width: (element as unknown as { naturalWidth: number }).naturalWidth, height: (element as unknown as { naturalHeight: number }).naturalHeight }));
    t.deepEqual(size, { width: 900, height: 300 });
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-try-it-card.png') });
    await assertClean(t, watched);
  } finally {
    await watched.page.close();
  }
});
