/**
 * Where a newcomer finds a key, and designing without one: `/` (a page, or JSON), the docs'
 * description and the playground lead to the account area, and a signed-in account previews
 * cards in the playground with its session, on a preview budget of its own that no key spends.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'puppeteer-core';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { openPlayground, waitForRender } from '../../support/gateway/playground/playground-page.ts';
import { AccountClient, linkToken, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';

declare const document: any;

const USER_ID = '302050872383242240';
const PREVIEW = `/account/api/preview/profile-image?userId=${USER_ID}`;
/** Two previews a minute: the third shows the preview budget is the account's own. */
const PREVIEW_BUDGET = 2;
const SCREENSHOTS = join(tmpdir(), 'account-screenshots');

let gateway: TestGateway;
let store: AccountStore;
let browser: Browser;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  gateway = await startTestGateway({ render: true, env: { RATE_LIMIT_PREVIEW: `${PREVIEW_BUDGET}/60s`, RENDER_WORKERS: '1' } });
  store = openTestStore(join(gateway.mediaDir, 'accounts.sqlite'));
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await store?.close();
  await gateway?.close();
});

async function signedInClient(): Promise<AccountClient> {
  const client = new AccountClient(gateway.url);
  const answer = await client.signInWithToken(await ownerLinkToken(store, gateway.url));
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  return client;
}

test.serial('/ links the account area, playground, docs and health; JSON when asked for', async (t) => {
  const page = await fetch(`${gateway.url}/`);
  const html = await page.text();
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  for (const link of ['/account', '/playground', '/docs', '/readyz']) t.true(html.includes(`href="${link}"`), link);
  t.regex(html, /Get an API key/);
  const stylesheet = /href="(\/home\/assets\/[^"]+\/playground\.css)"/.exec(html)?.[1];
  t.is((await fetch(`${gateway.url}${stylesheet}`)).status, 200, 'its stylesheet is served');

  const json = await fetch(`${gateway.url}/`, { headers: { accept: 'application/json' } });
  t.is(json.status, 200);
  t.like(await json.json(), { account: '/account', playground: '/playground', docs: '/docs', openapi: '/v1/openapi.json', health: '/readyz' });
  t.is((await fetch(`${gateway.url}/nowhere`)).status, 404, 'other paths are still a JSON 404');
});

test.serial('the API description says where keys come from', async (t) => {
  const document = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as { info: { description: string } };
  t.regex(document.info.description, /\[account area\]\(\/account\)/);
});

test.serial('the session preview needs the session, its origin and its CSRF token, and answers the card', async (t) => {
  const stranger = new AccountClient(gateway.url);
  t.is((await stranger.post(PREVIEW, {})).status, 401, 'no session');
  const client = await signedInClient();
  t.is((await client.post(PREVIEW, {}, { 'x-csrf-token': 'wrong' })).status, 403, 'a wrong CSRF token');
  t.is((await client.post(PREVIEW, {}, { origin: 'https://elsewhere.example' })).status, 403, 'another origin');
  const card = await client.request(PREVIEW, {
    method: 'POST',
    headers: { origin: client.origin, 'x-csrf-token': client.csrfToken!, 'content-type': 'application/json', accept: 'image/png' },
    body: JSON.stringify({ customTag: 'Preview' }),
  });
  t.is(card.status, 200);
  t.is(card.headers.get('content-type'), 'image/png');
  t.regex(card.headers.get('x-alt-text') ?? '', /Preview/);
  t.is(card.headers.get('ratelimit-limit'), String(PREVIEW_BUDGET), 'the preview budget, not a key budget');
  const invalid = await client.post(PREVIEW, { customTag: 7 });
  t.is(invalid.status, 400, 'the same validation as the API');
});

test.serial("previews spend the account's preview budget, never a key's card budget", async (t) => {
  const client = await signedInClient();
  const statuses: number[] = [];
  for (let index = 0; index < PREVIEW_BUDGET + 1; index += 1) statuses.push((await client.post(PREVIEW, { customTag: `budget ${index}` })).status);
  t.is(statuses.at(-1), 429, `statuses ${statuses.join(', ')}`);
  const keyCard = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson({ customTag: 'key card' }, { headers: { authorization: TEST_API_KEY } }));
  t.is(keyCard.status, 200, "the key's card budget is untouched");
  t.not(keyCard.response.headers.get('ratelimit-limit'), String(PREVIEW_BUDGET));
});

test.serial('the playground, signed in, previews without a key; signed out, it points to the account area', async (t) => {
  const signedOut = await openPlayground(browser, gateway.url, { width: 1280, height: 900 });
  t.false(await signedOut.page.$eval('#get-key', (node: any) => node.hidden));
  t.is(await signedOut.page.$eval('#get-key a', (node: any) => node.getAttribute('href')), '/account');
  t.deepEqual(signedOut.reports.consoleErrors, [], 'asking whether the visitor is signed in fails nothing');
  await signedOut.page.close();

  // Another account than the budget test's (its preview budget is spent): sign in in the browser
  // with a one-time link, then open the playground in the same context.
  const designer = await store.createAccount({ id: 'acct_designer', name: 'Designer', discordUserId: null, plan: 'free', createdAt: new Date().toISOString() });
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const link = await createSignInLink(store, { accountId: designer.id, baseUrl: gateway.url, now: new Date() });
  t.truthy(linkToken(link.url));
  await page.goto(link.url, { waitUntil: 'networkidle0' });
  await page.waitForFunction(() => document.location.pathname === '/account', { timeout: 15_000 });
  const requests: { url: string; headers: Record<string, string> }[] = [];
  page.on('request', (request) => requests.push({ url: request.url(), headers: request.headers() }));
  await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
  await page.goto(`${gateway.url}/playground`, { waitUntil: 'networkidle0' });
  await waitForRender(page, 0);
  t.regex(await page.$eval('#signed-in', (node: any) => node.textContent), /Signed in as Designer/);
  t.true(await page.$eval('#api-key', (node: any) => node.closest('.field').hidden), 'no key field to fill');
  const previews = requests.filter((request) => request.url.includes('/account/api/preview/profile-image'));
  t.true(previews.length >= 1);
  t.false(previews.some((request) => 'authorization' in request.headers), 'no key was sent');
  t.false(requests.some((request) => request.url.includes('/v1/profile-image')), 'nothing went to the key-only route');
  await page.screenshot({ path: join(SCREENSHOTS, 'playground-signed-in.png') });
  await context.close();
});
