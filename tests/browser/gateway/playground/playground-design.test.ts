import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import test from 'ava';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../helpers/browser.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';
import { startImageServer, type ImageServer } from '../../../support/pipeline/image-server.ts';
import { animatedImage } from '../../../fixtures/images.ts';
import { decodePng, differentPixels, openPlayground, previewPixels, renderCount, retype, snippet, waitForError, waitForRender } from '../../../support/gateway/playground/playground-page.ts';

/*
 * The design beyond one tab: the URL that keeps it, import and export of its body, the preview at
 * Discord's size, the format the API really sent, and snippets that fit the layout.
 *
 * Only the page in front is driven: puppeteer's click first waits for an IntersectionObserver to
 * see the element, and a background tab renders nothing, so a click there never returns (the WIP
 * version of these tests timed out that way). A second page is opened once the first is done with.
 */

declare const window: any;
declare const document: any;

const run = promisify(execFile);
const SCREENSHOTS = join(tmpdir(), 'playground-screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let gateway: TestGateway;
let browser: Browser;
/** Serves an animated background, so an animated card really moves. */
let images: ImageServer;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const colours = ['#d03030', '#3050d0', '#30a050', '#d0a030'];
  const moving = await animatedImage('webp', { width: 96, height: 32 }, colours, colours.map(() => 120));
  images = await startImageServer({ '/moving.webp': (_request, respond) => respond(200, 'image/webp', moving) });
  // The background is fetched by the gateway from this loopback server.
  gateway = await startTestGateway({ render: true, env: { RATE_LIMIT_PROFILE_IMAGE: '600/60s', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
  await images?.close();
});

/** The bodies of the card requests a page sent, in order. */
const sentBodies = (requests: { url: string; method: string; body: string | undefined }[]) =>
  requests.filter((request) => request.method === 'POST' && request.url.includes('/v1/profile-image')).map((request) => JSON.parse(request.body ?? '{}'));

/** Waits for a download to land (Chromium writes it under a temporary name, then renames it). */
async function waitForFile(path: string): Promise<void> {
  const [directory, name] = [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)];
  while (!readdirSync(directory).includes(name)) await new Promise((resolve) => setTimeout(resolve, 100));
}

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
    const decoded = Buffer.from(link.split('#design=')[1], 'base64url').toString('utf8');
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
    const secondErrors: string[] = [];
    second.on('pageerror', (error) => secondErrors.push(String(error)));
    await second.goto(link, { waitUntil: 'networkidle0' });
    await second.waitForSelector('#card-form .field');
    await second.type('#api-key', TEST_API_KEY);
    await waitForRender(second, 0);
    t.deepEqual(sentBodies(requests), [body]);
    t.true(requests.some((request) => request.url.endsWith('/v1/profile-image?userId=80351110224678912')));
    // Reset goes back to the defaults, and so does the URL.
    await second.click('#reset-form');
    t.is(await second.evaluate(() => window.location.hash), '');
    t.notDeepEqual(JSON.parse(await snippet(second, 'json')), body);
    // The link pasted into the address bar of an open tab changes only the fragment: the form follows.
    await second.evaluate((fragment: string) => { window.location.hash = fragment; }, link.slice(link.indexOf('#')));
    await second.waitForFunction(() => document.querySelector('#field-headline')?.value === 'Bon voyage ✈');
    t.deepEqual(JSON.parse(await snippet(second, 'json')), body);
    // A fragment this page did not write (cut short, edited by hand) leaves the defaults, and nothing breaks.
    for (const broken of ['#design=%%%', `#design=${Buffer.from('[1,{').toString('base64url')}`, `#design=${Buffer.from(JSON.stringify({ b: { layout: 7, rankData: 'x', customBadges: { a: 1 } } })).toString('base64url')}`]) {
      await second.evaluate((fragment: string) => { window.location.hash = fragment; }, broken);
      await second.waitForFunction(() => document.querySelector('#field-headline')?.value === '');
      t.is(await second.$eval('#field-userId', (input) => input.value), '302050872383242240', broken);
    }
    t.deepEqual(secondErrors, []);
    t.deepEqual(first.reports.pageErrors, []);
    t.deepEqual(await first.violations(), []);
  } finally {
    await second?.close();
    await first.page.close();
  }
});

test.serial('export downloads the body the API gets; importing it elsewhere fills the same form; a bad import is marked, never dropped', async (t) => {
  const downloads = mkdtempSync(join(tmpdir(), 'playground-export-'));
  try {
    const source = await openPlayground(browser, gateway.url, DESKTOP);
    let body: Record<string, unknown>;
    let exported: string;
    try {
      await chooseLayout(source.page, 'welcome');
      await retype(source.page, '#field-customUsername', 'Exported "quotes" 🎉');
      await retype(source.page, '#field-message', 'Line with \\ backslash');
      await source.page.type('#api-key', TEST_API_KEY);
      await waitForRender(source.page, 0);
      body = JSON.parse(await snippet(source.page, 'json'));
      const cdp = await source.page.createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
      await source.page.click('#export-json');
      await waitForFile(join(downloads, 'card.json'));
      exported = readFileSync(join(downloads, 'card.json'), 'utf8');
      t.deepEqual(JSON.parse(exported), body, 'the exported file is the body the JSON tab shows');
      t.deepEqual(sentBodies(source.reports.requests).at(-1), body, 'and the body the API got');
      t.deepEqual(source.reports.pageErrors, []);
    } finally {
      await source.page.close();
    }

    const target = await openPlayground(browser, gateway.url, DESKTOP);
    try {
      const { page, reports } = target;
      t.notDeepEqual(JSON.parse(await snippet(page, 'json')), body);
      await page.click('#import-json');
      t.true(await page.$eval('#import-dialog', (dialog) => dialog.open));
      await page.$eval('#import-text', (area, text) => { area.value = text; }, exported);
      await page.click('#import-apply');
      t.false(await page.$eval('#import-dialog', (dialog) => dialog.open));
      t.deepEqual(JSON.parse(await snippet(page, 'json')), body, 'the import filled the form with the same body');
      t.is(await page.$eval('#field-customUsername', (input) => input.value), 'Exported "quotes" 🎉');
      t.is(await page.$$eval('#card-form .field.invalid', (fields) => fields.length), 0, 'a body the form can hold marks nothing');
      t.true((await page.evaluate(() => window.location.hash)).startsWith('#design='), 'and the URL follows');

      // Not JSON, or not an object: said in the dialog, the form untouched.
      for (const [text, expected] of [['{ layout: welcome', /^Not JSON/], ['[1, 2]', /is a JSON object/], ['null', /is a JSON object/]] as const) {
        await page.click('#import-json');
        await page.$eval('#import-text', (area, value) => { area.value = value; }, text);
        await page.click('#import-apply');
        t.regex(await page.$eval('#import-error', (node) => node.textContent ?? ''), expected, text);
        t.true(await page.$eval('#import-dialog', (dialog) => dialog.open), `${text}: the dialog stays open`);
        await page.click('#import-cancel');
        t.deepEqual(JSON.parse(await snippet(page, 'json')), body, `${text}: the form is untouched`);
      }

      // Fields that do not fit: marked next to their controls at once (no key yet), sent as
      // imported, then judged by the API itself.
      const misfit = { layout: 'welcome', sparkles: true, usernameColor: '#12', backgroundBrightness: 'bright', presenceStatus: 'sleepy', animated: false, customBadges: 'one', rankData: 'x' };
      await page.click('#import-json');
      await page.$eval('#import-text', (area, text) => { area.value = text; }, JSON.stringify(misfit));
      await page.click('#import-apply');
      t.is(await page.$eval('#import-note', (node) => node.textContent), 'Imported. Not fields of this API: sparkles.');
      const marked = () => page.$$eval('#card-form .field.invalid', (fields) => fields.map((field) => field.getAttribute('data-field')));
      t.deepEqual((await marked()).sort(), ['backgroundBrightness', 'customBadges', 'presenceStatus', 'rankData'], 'animated: false is the default, not a misfit');
      t.regex(await page.$eval('[data-field="presenceStatus"] > .field-error', (node) => node.textContent ?? ''), /^imported as "sleepy", which this control cannot show/);
      t.deepEqual(
        JSON.parse(await snippet(page, 'json')),
        { layout: 'welcome', usernameColor: '#12', sparkles: true, backgroundBrightness: 'bright', presenceStatus: 'sleepy', customBadges: 'one', rankData: 'x' },
        'the whole body replaced, misfits kept as imported',
      );
      await page.type('#api-key', TEST_API_KEY);
      const error = await waitForError(page);
      t.true(error.startsWith('400 invalid_request'), error);
      t.true(error.includes('sparkles: is not a known field'), error);
      t.like(sentBodies(reports.requests).at(-1), { sparkles: true, backgroundBrightness: 'bright', presenceStatus: 'sleepy' }, 'the misfits went to the API to be judged');
      t.is(await page.$eval('[data-field="usernameColor"] > .field-error', (node) => node.textContent), 'must be a color such as #FF5733, #F53 or a Discord integer color from 0 to 16777215');
      t.is(await page.$eval('[data-field="backgroundBrightness"] > .field-error', (node) => node.textContent), 'must be a number from 1 to 100 (imported as "bright")', 'the API\'s message, naming the value the control cannot show');
      await page.screenshot({ path: join(SCREENSHOTS, 'desktop-import-misfits.png'), fullPage: true });
      t.deepEqual(reports.pageErrors, []);
      t.deepEqual(await target.violations(), []);
    } finally {
      await target.page.close();
    }
  } finally {
    rmSync(downloads, { recursive: true, force: true });
  }
});

test.serial('the card shows at full size and at the 400 px Discord gives it; the format shown is what the API sent', async (t) => {
  const desktop = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    const { page, reports } = desktop;
    t.true(await page.$eval('.discord-panel', (panel) => panel.hidden), 'no empty Discord-size box before there is a card');
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

    // Animated, with no format chosen: the API sends WebP, and the page says what came, from the
    // answer's Content-Type and X-Card-Frames (the background really moves, so frames > 1).
    const answers: { type: string; frames: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().includes('/v1/profile-image')) answers.push({ type: response.headers()['content-type'] ?? '', frames: response.headers()['x-card-frames'] });
    });
    t.is(await page.$eval('[data-field="format"] input[value=""] + span', (node) => node.textContent), 'png');
    let renders = await renderCount(page);
    await page.type('#field-customBackground', `${images.url}/moving.webp`);
    await page.click('#field-animated');
    await waitForRender(page, renders);
    // Typing the URL alone asks for a still card: on a busy machine that one can be the render just
    // waited for, so wait until the page shows the animated answer (a PNG answer here times out).
    await page.waitForFunction(() => document.querySelector('#preview-format')?.textContent?.startsWith('WEBP') === true);
    t.is(reports.requests.filter((request) => request.url.includes('/v1/profile-image')).at(-1)!.headers.accept, 'image/webp');
    t.is(await page.$eval('[data-field="format"] input[value=""] + span', (node) => node.textContent), 'webp (auto)', 'the format choice left at its default names what comes');
    const webp = answers.at(-1)!;
    t.is(webp.type, 'image/webp');
    t.true(Number(webp.frames) > 1, `the card moves (${webp.frames} frames)`);
    t.is(await page.$eval('#preview-format', (node) => node.textContent), `WEBP · animated, ${webp.frames} frames`);
    t.regex(await page.$eval('#preview-status', (node) => node.textContent ?? ''), /^WEBP /);
    t.is(await page.$eval('#preview-discord', (image) => image.src), await page.$eval('#preview-image', (image) => image.src), 'the Discord-size preview shows the animated card too');
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-animated.png') });

    renders = await renderCount(page);
    await page.click('[data-field="format"] input[value="gif"]');
    await waitForRender(page, renders);
    const gif = answers.at(-1)!;
    t.is(gif.type, 'image/gif');
    t.is(await page.$eval('#preview-format', (node) => node.textContent), `GIF · animated, ${gif.frames} frames`);
    t.deepEqual(reports.pageErrors, []);
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
    // Narrower than Discord's 400 px here: the caption says the width it is shown at.
    t.is(await page.$eval('#preview-discord-size figcaption', (node) => node.textContent), `As Discord shows it in a chat: 400 px wide on a desktop; ${Math.round(box.width)} px here, fitted to this screen as Discord's app fits it`);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-discord-size.png'), fullPage: true });
    t.log(`screenshots: ${join(SCREENSHOTS, 'desktop-discord-size.png')}, phone-discord-size.png`);
  } finally {
    await phone.page.close();
  }
});

test.serial('the snippets hook the event the layout suits, carry only the fields it draws, and the curl one gets the card shown', async (t) => {
  const { page, reports } = await openPlayground(browser, gateway.url, DESKTOP);
  const directory = mkdtempSync(join(tmpdir(), 'playground-bots-'));
  await page.type('#api-key', TEST_API_KEY);
  await waitForRender(page, 0);
  /**
   * The snippets for what the form shows once the preview has caught up: the bot ones checked by
   * their own language, the curl one run by bash against the gateway, its card compared with the
   * preview's pixels.
   */
  const snippetsFor = async (name: string, renders: number) => {
    await waitForRender(page, renders);
    const javascript = await snippet(page, 'discord-js');
    const note = await page.$eval('#snippet-note', (node) => node.textContent ?? '');
    const python = await snippet(page, 'discord-py');
    writeFileSync(join(directory, `${name}.mjs`), javascript);
    writeFileSync(join(directory, `${name}.py`), python);
    await run(process.execPath, ['--check', join(directory, `${name}.mjs`)]);
    await run('python3', ['-m', 'py_compile', join(directory, `${name}.py`)]);
    const options = vm.runInNewContext(`(${/^const CARD_OPTIONS = (\{[\s\S]*?^\});$/m.exec(javascript)![1]!})`);
    const curl = await snippet(page, 'curl');
    const folder = join(directory, name);
    mkdirSync(folder);
    const { stderr } = await run('bash', ['-c', curl], { cwd: folder, env: { ...process.env, UTILITY_API_KEY: TEST_API_KEY } });
    t.is(stderr, '', `${name}: curl ran cleanly`);
    t.is(differentPixels(await previewPixels(page), decodePng(readFileSync(join(folder, 'card.png')))), 0, `${name}: curl got the card the preview shows`);
    return { javascript, python, options, curl, note };
  };
  try {
    let renders = await renderCount(page);
    await chooseLayout(page, 'welcome');
    await retype(page, '#field-headline', 'Welcome aboard');
    await retype(page, '#field-message', 'Read the rules');
    const welcome = await snippetsFor('welcome', renders);
    t.true(welcome.javascript.includes('client.on(Events.GuildMemberAdd,') && !welcome.javascript.includes('GuildMemberRemove'));
    t.true(welcome.python.includes('async def on_member_join(') && !welcome.python.includes('on_member_remove'));
    t.regex(welcome.note, /joins/);
    t.like(welcome.options, { layout: 'welcome', headline: 'Welcome aboard', message: 'Read the rules' });
    t.false('rankData' in welcome.options, 'the welcome layout does not draw rankData');
    t.false(welcome.curl.includes('rankData'));
    t.true(JSON.parse(await snippet(page, 'json')).rankData !== undefined, 'though the form holds it');
    t.true(sentBodies(reports.requests).at(-1).rankData !== undefined, 'and the preview sends it');

    renders = await renderCount(page);
    await retype(page, '#field-headline', 'Goodbye');
    const goodbye = await snippetsFor('goodbye', renders);
    t.true(goodbye.javascript.includes('client.on(Events.GuildMemberRemove,') && !goodbye.javascript.includes('GuildMemberAdd'));
    t.true(goodbye.python.includes('async def on_member_remove(') && !goodbye.python.includes('on_member_join'));
    t.regex(goodbye.note, /leaves/);

    renders = await renderCount(page);
    await chooseLayout(page, 'profile');
    const profile = await snippetsFor('profile', renders);
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
    t.deepEqual(reports.pageErrors, []);
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await page.close();
  }
});
