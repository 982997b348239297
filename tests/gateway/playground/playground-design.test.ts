import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import test from 'ava';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../helpers/browser.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { openPlayground, renderCount, retype, snippet, waitForError, waitForRender } from './playground-page.ts';

/*
 * The design beyond one tab: the URL that keeps it, import and export of its body, the preview at
 * Discord's size, the format the API really sent, and snippets that fit the layout.
 */

declare const window: any;
declare const document: any;

const run = promisify(execFile);
const SCREENSHOTS = join(tmpdir(), 'playground-screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let gateway: TestGateway;
let browser: Browser;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  gateway = await startTestGateway({ env: { RATE_LIMIT_PROFILE_IMAGE: '600/60s' } });
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
});

/** The bodies of the card requests a page sent, in order. */
const sentBodies = (requests: { url: string; method: string; body: string | undefined }[]) =>
  requests.filter((request) => request.method === 'POST' && request.url.includes('/v1/profile-image')).map((request) => JSON.parse(request.body ?? '{}'));

/** Picks a layout by the label it shows (the default's radio sends nothing, so its value is ''). */
async function chooseLayout(page: Page, layout: 'profile' | 'welcome'): Promise<void> {
  const index = await page.$$eval('[data-field="layout"] .segment span', (spans, wanted) => spans.findIndex((span) => span.textContent === wanted), layout);
  if (index < 0) throw new Error(`no ${layout} layout choice`);
  const radios = await page.$$('[data-field="layout"] .segment input');
  await radios[index]!.click();
}

test.serial('the design lives in the URL: a reload keeps it and the copied link sends the same body', async (t) => {
  const first = await openPlayground(browser, gateway.url, DESKTOP);
  // Opened only when needed: a page in the background has its timers (the preview's debounce) throttled.
  let second: Page | undefined;
  try {
    const { page, reports } = first;
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    t.is(await page.evaluate(() => window.location.hash), '', 'the default design needs no fragment');
    const renders = await renderCount(page);
    await chooseLayout(page, 'welcome');
    await retype(page, '#field-headline', 'Bon voyage ✈');
    await page.type('#field-borderColor', '#ff00aa');
    await retype(page, '#field-userId', '80351110224678912');
    await waitForRender(page, renders);
    const body = JSON.parse(await snippet(page, 'json'));
    t.like(body, { layout: 'welcome', headline: 'Bon voyage ✈', borderColor: '#ff00aa' });
    const link = await page.evaluate(() => window.location.href);
    t.regex(link, /\/playground#design=[\w-]+$/);
    t.true(link.length < 300, `short: only what differs from the defaults (${link.length} characters)`);
    const decoded = Buffer.from(link.split('#design=')[1]!, 'base64url').toString('utf8');
    t.false(link.includes(TEST_API_KEY) || decoded.includes(TEST_API_KEY), 'the key is never in the URL');
    t.false(decoded.includes('presenceStatus'), 'defaults are left out of the link');

    // A reload keeps the form (the key is not remembered here: it is typed again).
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('#card-form .field');
    t.deepEqual(JSON.parse(await snippet(page, 'json')), body);
    t.is(await page.$eval('#field-userId', (input) => input.value), '80351110224678912');
    t.is(await page.$eval('#field-headline', (input) => input.value), 'Bon voyage ✈');
    t.false(await page.$eval('[data-field="headline"]', (field) => field.classList.contains('inactive')), 'the layout from the link decides what is greyed out');
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    t.deepEqual(sentBodies(reports.requests).at(-1), body);
    const lastCard = reports.requests.filter((request) => request.method === 'POST' && request.url.includes('/v1/profile-image')).at(-1);
    t.true(lastCard!.url.includes('userId=80351110224678912'), lastCard?.url);

    // The link opened in another tab sends the same request.
    const requests: { url: string; method: string; body: string | undefined }[] = [];
    second = await browser.newPage();
    second.on('request', (request) => requests.push({ url: request.url(), method: request.method(), body: request.postData() }));
    await second.goto(link, { waitUntil: 'networkidle0' });
    await second.waitForSelector('#card-form .field');
    await second.type('#api-key', TEST_API_KEY);
    await waitForRender(second, 0);
    t.deepEqual(sentBodies(requests), [body]);
    t.true(requests.some((request) => request.url.endsWith('/v1/profile-image?userId=80351110224678912')));
    // Reset goes back to the defaults, and so does the URL.
    await second.click('#reset-form');
    t.is(await second.evaluate(() => window.location.hash), '');
    t.deepEqual(first.reports.pageErrors, []);
    t.deepEqual(await first.violations(), []);
  } finally {
    await second?.close();
    await first.page.close();
  }
});

test.serial('export downloads the body; importing it elsewhere fills the same form; a bad import names the fields', async (t) => {
  const source = await openPlayground(browser, gateway.url, DESKTOP);
  const target = await openPlayground(browser, gateway.url, DESKTOP);
  const downloads = mkdtempSync(join(tmpdir(), 'playground-export-'));
  try {
    await chooseLayout(source.page, 'welcome');
    await retype(source.page, '#field-customUsername', 'Exported "quotes" 🎉');
    await retype(source.page, '#field-message', 'Line with \\ backslash');
    const body = JSON.parse(await snippet(source.page, 'json'));
    const cdp = await source.page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await source.page.click('#export-json');
    const started = Date.now();
    while (!readdirSync(downloads).includes('card.json') && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const exported = readFileSync(join(downloads, 'card.json'), 'utf8');
    t.deepEqual(JSON.parse(exported), body, 'the exported file is the body');

    const { page, reports } = target;
    t.notDeepEqual(JSON.parse(await snippet(page, 'json')), body);
    await page.click('#import-json');
    t.true(await page.$eval('#import-dialog', (dialog) => dialog.open));
    await page.$eval('#import-text', (area, text) => { area.value = text; }, exported);
    await page.click('#import-apply');
    t.false(await page.$eval('#import-dialog', (dialog) => dialog.open));
    t.deepEqual(JSON.parse(await snippet(page, 'json')), body, 'the import filled the form with the same body');
    t.true((await page.evaluate(() => window.location.hash)).startsWith('#design='), 'and the URL follows');

    // Not JSON: said in the dialog, the form untouched.
    await page.click('#import-json');
    await page.$eval('#import-text', (area) => { area.value = '{ layout: welcome'; });
    await page.click('#import-apply');
    t.regex(await page.$eval('#import-error', (node) => node.textContent ?? ''), /^Not JSON/);
    t.true(await page.$eval('#import-dialog', (dialog) => dialog.open));
    await page.click('#import-cancel');

    // Fields that do not fit: the unknown one named at once, then both judged by the API itself.
    await page.click('#import-json');
    await page.$eval('#import-text', (area) => { area.value = JSON.stringify({ layout: 'welcome', sparkles: true, usernameColor: '#12' }); });
    await page.click('#import-apply');
    t.is(await page.$eval('#import-note', (node) => node.textContent), 'Imported. Not fields of this API: sparkles.');
    t.deepEqual(JSON.parse(await snippet(page, 'json')), { layout: 'welcome', usernameColor: '#12' }, 'the import replaced the whole body');
    await page.type('#api-key', TEST_API_KEY);
    const error = await waitForError(page);
    t.true(error.startsWith('400 invalid_request'), error);
    t.true(error.includes('sparkles: is not a known field'), error);
    t.true(sentBodies(reports.requests).at(-1).sparkles, 'the unknown field went to the API to be judged');
    t.is(await page.$eval('[data-field="usernameColor"] > .field-error', (node) => node.textContent), 'must be a #rgb or #rrggbb hex colour');
    t.deepEqual(await target.violations(), []);
  } finally {
    rmSync(downloads, { recursive: true, force: true });
    await source.page.close();
    await target.page.close();
  }
});

test.serial('the card shows at full size and at the 400 px Discord gives it; the format shown is what the API sent', async (t) => {
  const desktop = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    const { page, reports } = desktop;
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const discord = await page.$eval('#preview-discord', (image) => ({ width: image.getBoundingClientRect().width, natural: image.naturalWidth, src: image.src }));
    t.is(discord.width, 400, 'Discord\'s display width');
    t.is(discord.natural, 900);
    t.is(discord.src, await page.$eval('#preview-image', (image) => image.src), 'the same card');
    t.true((await page.$eval('#preview-image', (image) => image.getBoundingClientRect().width)) > 400, 'beside the larger full-size one');
    t.is(await page.$eval('#preview-discord-size figcaption', (node) => node.textContent), 'As Discord shows it in a chat: 400 px wide');
    await page.waitForFunction(() => document.querySelector('#preview-full-size')?.textContent === 'Full size, 900 × 300');
    t.is(await page.$eval('#preview-format', (node) => node.textContent), 'PNG');
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-discord-size.png') });

    // Animated, with no format chosen: the API sends WebP, and the page says so.
    t.is(await page.$eval('[data-field="format"] input[value=""] + span', (node) => node.textContent), 'png');
    const renders = await renderCount(page);
    await page.click('#field-animated');
    await waitForRender(page, renders);
    t.is(reports.requests.filter((request) => request.url.includes('/v1/profile-image')).at(-1)!.headers.accept, 'image/webp');
    t.regex(await page.$eval('#preview-format', (node) => node.textContent ?? ''), /^WEBP/);
    t.is(await page.$eval('[data-field="format"] input[value=""] + span', (node) => node.textContent), 'webp', 'the format choice left at its default names what comes');
  } finally {
    await desktop.page.close();
  }
  const phone = await openPlayground(browser, gateway.url, PHONE);
  try {
    const { page } = phone;
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const box = await page.$eval('#preview-discord', (image) => image.getBoundingClientRect().toJSON());
    t.true(box.x >= 0 && box.right <= PHONE.width && box.width > 300, JSON.stringify(box));
    t.true((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-discord-size.png'), fullPage: true });
    t.log(`screenshots: ${join(SCREENSHOTS, 'desktop-discord-size.png')}, phone-discord-size.png`);
  } finally {
    await phone.page.close();
  }
});

test.serial('the bot snippets hook the event the layout suits and carry only the fields it draws', async (t) => {
  const { page } = await openPlayground(browser, gateway.url, DESKTOP);
  const directory = mkdtempSync(join(tmpdir(), 'playground-bots-'));
  /** Both bot snippets, each checked by its own language. */
  const bots = async (name: string) => {
    const javascript = await snippet(page, 'discord-js');
    const python = await snippet(page, 'discord-py');
    writeFileSync(join(directory, `${name}.mjs`), javascript);
    writeFileSync(join(directory, `${name}.py`), python);
    await run(process.execPath, ['--check', join(directory, `${name}.mjs`)]);
    await run('python3', ['-m', 'py_compile', join(directory, `${name}.py`)]);
    const options = vm.runInNewContext(`(${/^const CARD_OPTIONS = (\{[\s\S]*?^\});$/m.exec(javascript)![1]!})`);
    return { javascript, python, options, curl: await snippet(page, 'curl'), note: await page.$eval('#snippet-note', (node) => node.textContent ?? '') };
  };
  try {
    await chooseLayout(page, 'welcome');
    await retype(page, '#field-headline', 'Welcome aboard');
    await retype(page, '#field-message', 'Read the rules');
    const welcome = await bots('welcome');
    t.true(welcome.javascript.includes('client.on(Events.GuildMemberAdd,') && !welcome.javascript.includes('GuildMemberRemove'));
    t.true(welcome.python.includes('async def on_member_join(') && !welcome.python.includes('on_member_remove'));
    t.like(welcome.options, { headline: 'Welcome aboard', message: 'Read the rules' });
    t.false('rankData' in welcome.options, 'the welcome layout does not draw rankData');
    t.true(JSON.parse(await snippet(page, 'json')).rankData !== undefined, 'though the form holds it');

    await retype(page, '#field-headline', 'Goodbye');
    const goodbye = await bots('goodbye');
    t.true(goodbye.javascript.includes('client.on(Events.GuildMemberRemove,') && !goodbye.javascript.includes('GuildMemberAdd'));
    t.true(goodbye.python.includes('async def on_member_remove(') && !goodbye.python.includes('on_member_join'));
    t.regex(goodbye.note, /leaves/);

    await chooseLayout(page, 'profile');
    const profile = await bots('profile');
    t.true(profile.javascript.includes('new SlashCommandBuilder()') && profile.javascript.includes(".setName('rank')") && profile.javascript.includes('Events.InteractionCreate'));
    t.false(/GuildMember(Add|Remove)|GuildMembers/.test(profile.javascript), 'no member events, nor the members intent');
    t.true(profile.python.includes('@tree.command(name="rank"') && !profile.python.includes('on_member_'));
    t.regex(profile.note, /\/rank/);
    for (const [language, text] of [['discord.js', profile.javascript], ['discord.py', profile.python], ['curl', profile.curl]] as const) {
      t.false(/headline|Welcome aboard|"?message"?:|Read the rules/.test(text), `no welcome-only field in the ${language} snippet`);
    }
    t.truthy(profile.options.rankData, 'the profile layout draws rankData');
    t.true(profile.python.includes('"autoColorRank": True'), 'booleans are spelled as Python spells them');
    t.like(JSON.parse(await snippet(page, 'json')), { headline: 'Goodbye', message: 'Read the rules' }, 'the JSON body still holds them (they are sent)');
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await page.close();
  }
});
