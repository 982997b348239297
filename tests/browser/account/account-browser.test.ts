import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'puppeteer-core';
import { dayOf } from '../../../services/gateway/src/accounts/account-model.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import { freePort } from '../../helpers/processes.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { timeUntil } from '../../support/keys/key-processes.ts';
import { openTestStore } from '../../support/account/account-client.ts';
import { FakeDiscordOAuth } from '../../support/account/fake-discord-oauth.ts';
import { OWNER_PLAN, templatesAllowed } from '../../../services/gateway/src/accounts/plans.ts';

/*
 * The page's globals, for the callbacks puppeteer runs inside the browser. The project compiles for
 * Node (no DOM lib), so they are declared here, for this module only.
 */
declare const window: any;
declare const document: any;
declare const navigator: any;

/** Where the screenshots go (kept after the run, to be looked at). */
const SCREENSHOTS = join(tmpdir(), 'account-screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let fake: FakeDiscordOAuth;
let gateway: TestGateway;
let store: AccountStore;
let dataDir: string;
let browser: Browser;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  fake = await FakeDiscordOAuth.start();
  dataDir = mkdtempSync(join(tmpdir(), 'account-browser-'));
  const port = await freePort();
  gateway = await startTestGateway({ env: { PORT: String(port), DATABASE_PATH: join(dataDir, 'accounts.sqlite'), ...fake.env(`http://127.0.0.1:${port}`) } });
  store = openTestStore(join(dataDir, 'accounts.sqlite'));
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await store?.close();
  await gateway?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Watched {
  page: Page;
  problems: string[];
  violations: () => Promise<string[]>;
}

/** A page in a fresh browser context (its own cookies), recording errors and CSP violations. */
async function openPage(viewport: { width: number; height: number }): Promise<Watched> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error instanceof Error ? error.message : String(error)));
  page.on('console', (message) => {
    // The 401 of /account/api/me before sign-in is expected on the sign-in page; nothing else is.
    if (message.type() === 'error' && !message.text().includes('401')) problems.push(message.text());
  });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event: any) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return { page, problems, violations: () => page.evaluate(() => window.cspViolations as string[]) };
}

async function ownerLink(): Promise<string> {
  return (await createSignInLink(store, { accountId: OWNER_ACCOUNT_ID, baseUrl: gateway.url, now: new Date() })).url;
}

const ready = (page: Page) => page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
const text = (page: Page, selector: string) => page.$eval(selector, (node: any) => node.textContent.trim());

async function callWith(key: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/coin-flip`, { headers: { authorization: key } });
  await response.arrayBuffer();
  return response.status;
}

test.serial('desktop: the printed link signs in, a key is made and copied, it calls the API, and the charts count what the store holds', async (t) => {
  const { page, problems, violations } = await openPage(DESKTOP);
  await page.goto(await ownerLink(), { waitUntil: 'networkidle0' });
  await ready(page);
  t.is(new URL(page.url()).pathname, '/account');
  t.false(page.url().includes('token'), 'the token left the address bar');
  t.regex(await text(page, '#who'), /Local owner/);

  await page.browserContext().overridePermissions(gateway.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  await page.type('#key-name', 'welcome bot');
  await page.click('#create-key');
  await page.waitForSelector('#secret:not([hidden])');
  const key: string = await page.$eval('#secret-value', (input: any) => input.value);
  t.regex(key, /^uk_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
  await page.click('#copy-secret');
  // The copy is asynchronous (the clipboard API): the button says so when it is done.
  await page.waitForFunction(() => document.querySelector('#copy-secret').textContent === 'Copied', { timeout: 5000 });
  t.is(await page.evaluate(() => navigator.clipboard.readText()), key, 'the copy button put the key on the clipboard');
  t.is(await callWith(key), 200);
  await page.click('#hide-secret');
  t.is(await page.$eval('#secret-value', (input: any) => input.value), '', 'the secret is gone from the page once dismissed');

  const prefix = key.split('_').slice(0, 3).join('_');
  const today = dayOf(new Date());
  const count = (day: string, metric: 'requests' | 'cards' | 'rate_limited' | 'errors', label: string, n: number) => ({ accountId: OWNER_ACCOUNT_ID, keyId: prefix, day, metric, label, count: n });
  await store.addUsage(
    [
      count(today, 'requests', 'coinFlip', 12),
      count(today, 'requests', 'sortArray', 5),
      count(dayOf(new Date(Date.now() - 2 * 86_400_000)), 'requests', 'coinFlip', 8),
      count(today, 'cards', 'png', 4),
      count(today, 'cards', 'gif', 1),
      count(today, 'rate_limited', 'sortArray', 3),
      count(today, 'errors', 'coinFlip', 2),
    ],
    new Map([[prefix, new Date().toISOString()]]),
  );
  await page.reload({ waitUntil: 'networkidle0' });
  await ready(page);
  t.is(await text(page, '#totals dd[data-metric="requests"]'), '25');
  t.is(await text(page, '#totals dd[data-metric="cards"]'), '5');
  t.is(await text(page, '#totals dd[data-metric="rate_limited"]'), '3');
  t.is(await text(page, '#totals dd[data-metric="errors"]'), '2');
  t.is(await page.$eval('#chart-requests svg.chart-svg', (svg: any) => svg.getAttribute('data-total')), '25');
  t.is(await page.$eval('#chart-cards svg.chart-svg', (svg: any) => svg.getAttribute('data-total')), '5');
  t.is(await page.$eval('#chart-problems svg.chart-svg', (svg: any) => svg.getAttribute('data-total')), '5');
  const todayBars = await page.$$eval(`#chart-requests rect[data-day="${today}"]`, (rects: any[]) => rects.map((rect) => `${rect.getAttribute('data-label')}=${rect.getAttribute('data-count')}`).sort());
  // Endpoints are named by method and path, as a reader calls them, not by operation id.
  t.deepEqual(todayBars, ['GET /v1/coin-flip=12', 'POST /v1/sort-array=5']);
  t.is(await text(page, '#by-endpoint tr[data-endpoint="coinFlip"] td:nth-child(1)'), 'GET /v1/coin-flip');
  t.is(await text(page, '#by-endpoint tr[data-endpoint="coinFlip"] td:nth-child(2)'), '20');
  t.is(await text(page, '#by-format tr[data-format="png"] td:nth-child(2)'), '4');
  t.is(await text(page, `#keys-table tr[data-key="${prefix.slice(8)}"] .requests-today`), '17');
  // The owner's start-up key (API_KEYS) is listed too, read-only: its source said, no roll or revoke.
  t.regex(await text(page, '#keys-table tr[data-startup="API_KEYS"] td[data-label="Name"]'), /start-up key from API_KEYS/);
  t.is((await page.$$('#keys-table tr[data-startup] button')).length, 0);
  // The local owner's plan has no quotas: the count alone, no meter.
  t.regex(await text(page, '#quota [data-quota="Cards"]'), /5 this month \(no limit on this plan\)/);
  t.is(await page.$('#quota [data-quota="Cards"] meter'), null);
  t.regex(await text(page, '#who'), /plan owner/);
  // Per key: the picker lists the key; choosing it shows its own counts.
  await page.select('#usage-key', prefix);
  await page.waitForFunction((id: string) => document.querySelector('#usage-key').value === id && document.querySelector('#totals dd[data-metric="requests"]').textContent === '25', {}, prefix);
  await page.screenshot({ path: join(SCREENSHOTS, 'desktop.png'), fullPage: true });
  t.log(`desktop screenshot: ${join(SCREENSHOTS, 'desktop.png')}`);

  // Roll through the page (the confirm dialog is accepted): a new secret shown once, the old one still works.
  await page.click(`#keys-table tr[data-key="${prefix.slice(8)}"] button[data-action="roll"]`);
  await page.waitForFunction(() => !document.querySelector('#secret').hidden && document.querySelector('#secret-title').textContent.startsWith('New secret'));
  const rolled: string = await page.$eval('#secret-value', (input: any) => input.value);
  t.not(rolled, key);
  t.is(await callWith(rolled), 200);
  t.is(await callWith(key), 200, 'the old secret is in its grace period');
  // Revoke through the page: the row shows it, and the key stops working.
  await page.click(`#keys-table tr[data-key="${prefix.slice(8)}"] button[data-action="revoke"]`);
  await page.waitForSelector(`#keys-table tr.revoked[data-key="${prefix.slice(8)}"]`);
  t.true(await page.$eval('#secret', (box: any) => box.hidden), 'the revoked key\'s secret no longer shows');
  await timeUntil(async () => (await callWith(rolled)) === 401, 2000);
  t.is(await callWith(key), 401);
  await page.waitForSelector('#audit-table tr[data-event="key_revoked"]');
  const events = await page.$$eval('#audit-table tbody tr', (rows: any[]) => rows.map((row) => row.getAttribute('data-event')));
  t.deepEqual(events.slice(0, 3), ['key_revoked', 'key_rolled', 'key_created']);
  await page.screenshot({ path: join(SCREENSHOTS, 'desktop-after-revoke.png'), fullPage: true });

  t.deepEqual(await violations(), []);
  t.deepEqual(problems, []);
  await page.browserContext().close();
});

test.serial('phone width: the area fits the screen, the key list reads as cards, charts scale down', async (t) => {
  const { page, problems, violations } = await openPage(PHONE);
  await page.goto(await ownerLink(), { waitUntil: 'networkidle0' });
  await ready(page);
  await page.type('#key-name', 'phone bot');
  await page.click('#create-key');
  await page.waitForSelector('#secret:not([hidden])');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.true(overflow <= 0, `the page is ${overflow} px wider than the phone`);
  const chartWidth = await page.$eval('#chart-requests svg.chart-svg', (svg: any) => svg.getBoundingClientRect().width);
  t.true(chartWidth > 250 && chartWidth <= PHONE.width, `chart width ${chartWidth}`);
  const headerHidden = await page.$eval('#keys-table thead', (head: any) => head.getBoundingClientRect().height <= 1);
  t.true(headerHidden, 'the table header gives way to labels in each row');
  await page.screenshot({ path: join(SCREENSHOTS, 'phone.png'), fullPage: true });
  t.log(`phone screenshot: ${join(SCREENSHOTS, 'phone.png')}`);
  t.deepEqual(await violations(), []);
  t.deepEqual(problems, []);
  await page.browserContext().close();
});

test.serial('Sign in with Discord from the page, through the fake; a used link is refused with a clear message', async (t) => {
  fake.user = { id: '444444444444444444', username: 'chromium_user', global_name: 'Chromium User' };
  const { page, problems, violations } = await openPage(DESKTOP);
  await page.goto(`${gateway.url}/account`, { waitUntil: 'networkidle0' });
  t.is(new URL(page.url()).pathname, '/account/sign-in', 'not signed in: the sign-in page');
  await page.waitForSelector('#discord:not([hidden])');
  await page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });
  await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('#discord')]);
  await ready(page);
  t.regex(await text(page, '#who'), /Chromium User/);

  const link = await ownerLink();
  const first = await openPage(DESKTOP);
  await first.page.goto(link, { waitUntil: 'networkidle0' });
  await ready(first.page);
  const second = await openPage(PHONE);
  await second.page.goto(link, { waitUntil: 'networkidle0' });
  await second.page.waitForFunction(() => document.querySelector('#status').textContent.includes('already used'));
  t.is(new URL(second.page.url()).pathname, '/account/sign-in');
  await second.page.screenshot({ path: join(SCREENSHOTS, 'link-used-phone.png') });

  fake.deny = true;
  try {
    const denied = await openPage(DESKTOP);
    await denied.page.goto(`${gateway.url}/account/sign-in`, { waitUntil: 'networkidle0' });
    await denied.page.waitForSelector('#discord:not([hidden])');
    await Promise.all([denied.page.waitForNavigation({ waitUntil: 'networkidle0' }), denied.page.click('#discord')]);
    t.regex(await text(denied.page, '#status'), /cancelled the sign-in at Discord/);
    await denied.page.browserContext().close();
  } finally {
    fake.deny = false;
  }
  // The used link's refusal is the one failed request the second page saw.
  t.deepEqual(second.problems, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  second.problems.length = 0;
  for (const watched of [{ page, problems, violations }, first, second]) {
    t.deepEqual(await watched.violations(), []);
    t.deepEqual(watched.problems, []);
    await watched.page.browserContext().close();
  }
});

test.serial('desktop: a template is saved, refused with the field named, renamed and deleted through the page', async (t) => {
  const { page, problems, violations } = await openPage(DESKTOP);
  await page.goto(await ownerLink(), { waitUntil: 'networkidle0' });
  await ready(page);
  const setFields = (json: string) => page.$eval('#template-fields', (area: any, value: string) => (area.value = value), json);
  const rows = () => page.$$eval('#templates-table tbody tr', (found: any[]) => found.map((row) => row.getAttribute('data-template')));
  t.deepEqual(await rows(), []);

  // Fields the API's schema refuses: the page shows the server's message, which names the field.
  await page.type('#template-name', 'Welcome, blue');
  await setFields('{ "layout": "welcome", "borderColor": "not a colour" }');
  await page.click('#save-template');
  await page.waitForSelector('#template-error:not([hidden])');
  t.regex(await text(page, '#template-error'), /fields\.borderColor/);
  t.deepEqual(await rows(), [], 'nothing saved');

  await setFields('{ "layout": "welcome", "headline": "Welcome", "borderColor": "#5865F2", "backgroundBrightness": 60, "customTag": "chromium" }');
  await page.click('#save-template');
  await page.waitForFunction(() => document.querySelectorAll('#templates-table tbody tr').length === 1);
  const [id] = (await rows()) as [string];
  t.regex(id, /^tpl_[a-z0-9]{12}$/);
  const row = `#templates-table tr[data-template="${id}"]`;
  t.is(await text(page, `${row} td[data-label="Use it"]`), `"template": "${id}"`);
  t.is(await text(page, `${row} td[data-label="Fields"]`), 'layout: welcome, customTag, borderColor, backgroundBrightness + 1 more');
  t.is((await store.getTemplate(OWNER_ACCOUNT_ID, id))?.fields.borderColor, '#5865f2', 'stored as the API stores it');
  t.true((await text(page, '#templates-count')).startsWith(`1 of ${templatesAllowed(OWNER_PLAN)} templates`), 'the owner plan\'s number');
  t.is(await page.$eval('#template-name', (input: any) => input.value), '', 'the form is ready for the next one');

  // Edit: the form takes the template; saving replaces it (PUT).
  await page.click(`${row} button[data-action="edit"]`);
  t.is(await page.$eval('#template-name', (input: any) => input.value), 'Welcome, blue');
  await page.$eval('#template-name', (input: any) => (input.value = 'Welcome, red'));
  await setFields('{ "layout": "welcome", "borderColor": "#ED4245" }');
  await page.click('#save-template');
  await page.waitForFunction((selector: string) => document.querySelector(`${selector} td[data-label="Name"]`)?.textContent === 'Welcome, red', {}, row);
  t.deepEqual((await store.getTemplate(OWNER_ACCOUNT_ID, id))?.fields, { layout: 'welcome', borderColor: '#ed4245' });
  await page.$eval('#template-name', (input: any) => (input.value = 'Second design'));
  await page.click('#save-template');
  await page.waitForFunction(() => document.querySelectorAll('#templates-table tbody tr').length === 2);
  t.is(await text(page, `${row} td[data-label="Kind"]`), 'profile');
  // A leaderboard design: the kind picks the fields' schema, and the untouched box offers a board's example.
  await page.$eval('#template-name', (input: any) => (input.value = 'Weekly board'));
  await page.select('#template-kind', 'leaderboard');
  t.deepEqual(JSON.parse(await page.$eval('#template-fields', (area: any) => area.value)), { title: 'Top chatters', scoreLabel: 'XP', autoColorRank: true });
  await page.click('#save-template');
  await page.waitForFunction(() => document.querySelectorAll('#templates-table tbody tr').length === 3);
  const board = (await rows())[2]!;
  t.is(await text(page, `#templates-table tr[data-template="${board}"] td[data-label="Kind"]`), 'leaderboard');
  t.like(await store.getTemplate(OWNER_ACCOUNT_ID, board), { kind: 'leaderboard', fields: { title: 'Top chatters' } });
  t.is(await page.$eval('#template-kind', (select: any) => select.value), 'profile', 'the form is ready for the next one, a profile design');
  const section = await page.$('section[aria-labelledby="templates-heading"]');
  await section!.screenshot({ path: join(SCREENSHOTS, 'templates-desktop.png') });
  t.log(`templates screenshot: ${join(SCREENSHOTS, 'templates-desktop.png')}`);
  // At phone width the rows read as cards and the long "use it" snippet wraps inside the screen.
  await page.setViewport({ ...PHONE, deviceScaleFactor: 1 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.true(overflow <= 0, `the page is ${overflow} px wider than the phone`);
  await section!.screenshot({ path: join(SCREENSHOTS, 'templates-phone.png') });
  await page.setViewport({ ...DESKTOP, deviceScaleFactor: 1 });

  // Delete through the page (the confirm dialog is accepted).
  await page.click(`${row} button[data-action="delete"]`);
  await page.waitForFunction((selector: string) => document.querySelector(selector) === null, {}, row);
  t.is(await store.getTemplate(OWNER_ACCOUNT_ID, id), undefined);
  await page.waitForSelector('#audit-table tr[data-event="template_deleted"]');
  const events = await page.$$eval('#audit-table tbody tr', (found: any[]) => found.map((event) => event.getAttribute('data-event')));
  t.deepEqual(events.slice(0, 5), ['template_deleted', 'template_created', 'template_created', 'template_changed', 'template_created']);

  t.deepEqual(await violations(), []);
  t.deepEqual(problems, ['Failed to load resource: the server responded with a status of 400 (Bad Request)'], 'the refused fields, and nothing else');
  await page.browserContext().close();
});
