import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import test from 'ava';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../helpers/browser.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';
import { decodePng, differentPixels, openPlayground, previewPixels, renderCount, retype, snippet, waitForError, waitForRender } from '../../../support/gateway/playground/playground-page.ts';

/*
 * The page's globals, for the callbacks puppeteer runs inside the browser. The project compiles for
 * Node (no DOM lib), so they are declared here, for this module only.
 */
declare const document: any;

const run = promisify(execFile);

/** Where the screenshots go (kept after the run, to be looked at). */
const SCREENSHOTS = join(tmpdir(), 'playground-screenshots');
const DESKTOP = { width: 1280, height: 900 };
/** The member's own fields: a template never holds them (services/gateway/src/cards/templates/endpoint.ts). */
const MEMBER_FIELDS = ['customUsername', 'customAvatar', 'rankData', 'presenceStatus'];

let gateway: TestGateway;
let browser: Browser;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  gateway = await startTestGateway({ render: true, env: { RATE_LIMIT_PROFILE_IMAGE: '600/60s' } });
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
});

/** Replaces a textarea's whole text as a person does: select all (a triple click selects one line only), type. */
async function retypeArea(page: Page, selector: string, text: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.type(selector, text);
}

/** What the API itself answers for a leaderboard body, as the preview asks for it. */
async function boardFromApi(body: unknown): Promise<Buffer> {
  const response = await gateway.request('/v1/leaderboard-image', postJson(body, { headers: { accept: 'image/png' } }));
  if (response.status !== 200) throw new Error(`the API answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

test.serial('leaderboard mode builds its form from the document, previews what the API draws, its snippets call the endpoint; the link keeps the mode', async (t) => {
  const { page, reports } = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    t.true(await page.$eval('#mode-profile', (radio) => radio.checked), 'a profile card first');
    await page.click('#mode-leaderboard');
    await page.waitForSelector('#card-form [data-field="rows"] textarea');
    t.is(await page.$('#card-form [data-field="layout"]'), null, 'the profile form is gone');
    t.is(await page.$eval('#options-heading', (node) => node.textContent), 'Leaderboard options');
    t.false(await page.$eval('#save-template', (button) => button.hidden), 'a board is saved as a leaderboard template');
    const openApi = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as any;
    const documented = Object.keys(openApi.paths['/v1/leaderboard-image'].post.requestBody.content['application/json'].schema.properties);
    const shown = await page.$$eval('#card-form > .form-part > fieldset > [data-field]', (wrappers) => wrappers.map((wrapper) => wrapper.getAttribute('data-field')));
    t.deepEqual([...shown].sort(), [...documented].sort(), 'one control per body field of createLeaderboardImage');

    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const body = JSON.parse(await snippet(page, 'json'));
    t.like(body, { title: 'Top chatters' }, 'the form starts from the document example');
    t.is(body.rows.length, 2);
    t.is(differentPixels(await previewPixels(page), decodePng(await boardFromApi(body))), 0, 'the preview is what the API draws for the body shown');
    // Typed key by key, a slow machine may pass the debounce with part of the key (a 401 the page
    // shows): the board is the one asked for with the whole key, once.
    const boardRequests = reports.requests.filter((request) => request.url.includes('/v1/leaderboard-image') && request.headers.authorization === TEST_API_KEY);
    t.is(boardRequests.length, 1);
    t.deepEqual(JSON.parse(boardRequests[0]!.body!), body, 'the preview sent the body the JSON tab shows');
    t.false(reports.requests.some((request) => request.url.includes('/v1/profile-image') && request.method === 'POST'), 'no profile card was asked for');

    // A title and a third row, typed as a person would.
    let renders = await renderCount(page);
    await retype(page, '#field-title', 'Weekly XP');
    await waitForRender(page, renders);
    renders = await renderCount(page);
    const rows = [...body.rows, { rank: 3, name: 'Zoë', level: 7, score: 1234 }];
    await retypeArea(page, '#field-rows', JSON.stringify(rows));
    await waitForRender(page, renders);
    const changed = JSON.parse(await snippet(page, 'json'));
    t.deepEqual(changed.rows, rows);
    t.is(differentPixels(await previewPixels(page), decodePng(await boardFromApi(changed))), 0, 'still what the API draws');
    t.is((await previewPixels(page)).height, 228 + 88 * 2 + 124, 'three rows and the highlight row, as documented');
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-leaderboard.png') });
    t.log(`leaderboard screenshot: ${join(SCREENSHOTS, 'desktop-leaderboard.png')}`);

    // The snippets call the leaderboard endpoint; curl, run by bash, gets the board the preview shows.
    const directory = mkdtempSync(join(tmpdir(), 'playground-leaderboard-'));
    try {
      const curl = await snippet(page, 'curl');
      t.true(curl.includes(`${gateway.url}/v1/leaderboard-image`) && !curl.includes('userId=') && !curl.includes(TEST_API_KEY));
      const { stderr } = await run('bash', ['-c', curl], { cwd: directory, env: { ...process.env, UTILITY_API_KEY: TEST_API_KEY } });
      t.is(stderr, '');
      t.is(differentPixels(await previewPixels(page), decodePng(readFileSync(join(directory, 'leaderboard.png')))), 0, 'curl got the board the preview shows');
      const javascript = await snippet(page, 'discord-js');
      const bot = join(directory, 'bot.mjs');
      writeFileSync(bot, javascript);
      await t.notThrowsAsync(run(process.execPath, ['--check', bot]), 'node --check accepts the discord.js snippet');
      t.true(javascript.includes(`'${gateway.url}/v1/leaderboard-image'`) && javascript.includes("setName('leaderboard')"));
      const { highlight: _highlight, ...board } = changed;
      t.deepEqual(vm.runInNewContext(`(${/^const BOARD = (\{[\s\S]*?^\});$/m.exec(javascript)![1]!})`), board, 'its BOARD is the body, the highlight left to the bot');
      const botPy = join(directory, 'bot.py');
      writeFileSync(botPy, await snippet(page, 'discord-py'));
      await t.notThrowsAsync(run('python3', ['-m', 'py_compile', botPy]), 'python3 -m py_compile accepts the discord.py snippet');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }

    // The permalink carries the mode: a fresh tab opens the same board.
    const link = page.url();
    t.regex(link, /#design=/);
    const reopened = await browser.newPage();
    try {
      await reopened.setViewport({ ...DESKTOP, deviceScaleFactor: 1 });
      await reopened.goto(link, { waitUntil: 'networkidle0' });
      await reopened.waitForSelector('#card-form [data-field="rows"] textarea');
      t.true(await reopened.$eval('#mode-leaderboard', (radio) => radio.checked));
      t.is(await reopened.$eval('#field-title', (input) => input.value), 'Weekly XP');
      t.deepEqual(JSON.parse(await snippet(reopened, 'json')), changed, 'the same body');
    } finally {
      await reopened.close();
    }
    // Back to the profile card: its form, and a link without the mode.
    await page.click('#mode-profile');
    await page.waitForSelector('#card-form [data-field="layout"]');
    t.false(await page.$eval('#save-template', (button) => button.hidden));
    t.true((await snippet(page, 'curl')).includes('/v1/profile-image?userId='));
    // Rows are typed key by key: on a slow machine a pause mid-list previews a half-typed list, which
    // the API refuses with a 400 the browser logs. Anything else logged is a fault of the page.
    t.deepEqual(reports.consoleErrors.filter((text) => !text.includes('status of 400')), []);
    t.deepEqual(reports.pageErrors, []);
  } finally {
    await page.close();
  }
});

test.serial('a bad row shows the API\'s 400 next to the rows field', async (t) => {
  const { page } = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    await page.click('#mode-leaderboard');
    await page.waitForSelector('#field-rows');
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const body = JSON.parse(await snippet(page, 'json'));
    // Two rows with one rank: the API refuses the board.
    const rows = [body.rows[0], { ...body.rows[1], rank: body.rows[0].rank }];
    await retypeArea(page, '#field-rows', JSON.stringify(rows));
    const shown = await waitForError(page);
    const direct = await gateway.request('/v1/leaderboard-image', postJson({ ...body, rows }, { headers: { accept: 'image/png' } }));
    t.is(direct.status, 400);
    const problem = (await direct.json()) as { error: { details: { field: string; message: string }[] } };
    const detail = problem.error.details[0]!;
    t.regex(detail.field, /^rows/);
    t.true(shown.startsWith('400'), shown);
    t.true(await page.$eval('[data-field="rows"]', (wrapper) => wrapper.classList.contains('invalid')));
    // Typed a key at a time, the rows were sent while half typed too (a busy machine fires the
    // debounce mid-way): the error next to the field ends as the one for the whole text.
    const nextToRows = () => page.$eval('[data-field="rows"] > .field-error', (node) => (node.hidden ? '' : node.textContent ?? ''));
    await page.waitForFunction((expected: string) => (document.querySelector('[data-field="rows"] > .field-error')?.textContent ?? '').includes(expected), { timeout: 30_000 }, detail.message).catch(() => undefined);
    const message = await nextToRows();
    t.true(message.includes(detail.message), `next to rows: ${message}`);
    await page.$eval('[data-field="rows"]', (wrapper) => wrapper.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-leaderboard-error.png') });
  } finally {
    await page.close();
  }
});

test.serial('the podium, the server header and scale 2 have controls in their groups; the preview is what the API draws with each', async (t) => {
  const { page, reports } = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    await page.click('#mode-leaderboard');
    await page.waitForSelector('#field-rows');
    const groupOf = (field: string) => page.$eval(`[data-field="${field}"]`, (wrapper) => wrapper.closest('fieldset')?.querySelector('legend')?.textContent ?? '');
    t.deepEqual(
      { podium: await groupOf('podium'), guild: await groupOf('guild'), background: await groupOf('background'), scale: await groupOf('scale') },
      { podium: 'Board', guild: 'Board', background: 'Background', scale: 'Output' },
    );
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    let body = JSON.parse(await snippet(page, 'json'));

    // The example has two rows: a podium needs ranks 1, 2 and 3, and the API's 400 shows next to it.
    await page.click('#field-podium');
    t.true((await waitForError(page)).startsWith('400'));
    const message = await page.$eval('[data-field="podium"] > .field-error', (node) => (node.hidden ? '' : node.textContent ?? ''));
    t.regex(message, /podium needs rows ranked 1, 2 and 3/);

    let renders = await renderCount(page);
    const rows = [...body.rows, { ...body.rows[1], rank: 3, name: 'Noor Haddad', score: Math.max(0, body.rows[1].score - 120) }];
    await retypeArea(page, '#field-rows', JSON.stringify(rows));
    await waitForRender(page, renders);
    body = JSON.parse(await snippet(page, 'json'));
    t.like(body, { podium: true });
    t.is(body.rows.length, 3);
    const podium = await previewPixels(page);
    t.is(differentPixels(podium, decodePng(await boardFromApi(body))), 0, 'the podium board the API draws');

    // "Include guild" first (a guild without its name is the API's 400), then the name.
    await page.click('#field-guild');
    t.true((await waitForError(page)).startsWith('400'));
    renders = await renderCount(page);
    await page.type('#field-guild-name', 'Pixel Garden');
    await waitForRender(page, renders);
    body = JSON.parse(await snippet(page, 'json'));
    t.deepEqual(body.guild, { name: 'Pixel Garden' });
    const withGuild = await previewPixels(page);
    t.true(withGuild.height > podium.height, 'the server header adds its band');
    t.is(differentPixels(withGuild, decodePng(await boardFromApi(body))), 0);

    renders = await renderCount(page);
    await page.click('[data-field="scale"] input[value="2"]');
    await waitForRender(page, renders);
    body = JSON.parse(await snippet(page, 'json'));
    t.is(body.scale, 2, 'sent as the number the API takes');
    const hidpi = await previewPixels(page);
    t.deepEqual([hidpi.width, hidpi.height], [withGuild.width * 2, withGuild.height * 2]);
    // The two 400s asked for above are the browser's only complaints.
    t.deepEqual(reports.consoleErrors.filter((error) => !error.includes('status of 400')), []);
  } finally {
    await page.close();
  }
});

test.serial('Save as template saves the profile design without the member\'s fields; the API\'s errors show next to the button', async (t) => {
  const { page, reports } = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    // Without a key it says a key is needed, and sends nothing.
    await page.click('#save-template');
    await page.type('#template-name', 'Dark welcome');
    await page.click('#template-save-apply');
    t.regex(await page.$eval('#template-error', (node) => (node.hidden ? '' : node.textContent ?? '')), /needs an API key/);
    t.false(reports.requests.some((request) => request.url.includes('/v1/templates')));

    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    let renders = await renderCount(page);
    await page.click('[data-field="layout"] input[value="welcome"]');
    await waitForRender(page, renders);
    renders = await renderCount(page);
    await page.type('#field-borderColor', '#ff00aa');
    await waitForRender(page, renders);
    const design = JSON.parse(await snippet(page, 'json'));
    t.true(MEMBER_FIELDS.some((field) => Object.hasOwn(design, field)), 'the design holds member fields to leave out');

    // An empty name: the API's 400, shown next to the button.
    await retype(page, '#template-name', '');
    await page.click('#template-save-apply');
    await page.waitForFunction(() => document.querySelector('#template-error')?.hidden === false);
    const error = await page.$eval('#template-error', (node) => node.textContent ?? '');
    t.regex(error, /^400 /);
    t.regex(error, /name/);
    t.true(await page.$eval('#template-result', (node) => node.hidden));

    await page.type('#template-name', 'Dark welcome');
    await page.click('#template-save-apply');
    await page.waitForFunction(() => document.querySelector('#template-result')?.hidden === false);
    const id = await page.$eval('#template-result .template-id', (node) => node.textContent ?? '');
    t.regex(id, /^tpl_[a-z0-9]{12}$/);
    t.true((await page.$eval('#template-result', (node) => node.textContent ?? '')).includes(`"template": "${id}"`), 'a snippet line naming it');
    t.true(await page.$eval('#template-error', (node) => node.hidden));
    const sent = reports.requests.find((request) => request.url.endsWith('/v1/templates') && request.method === 'POST' && request.body?.includes('Dark welcome'));
    t.is(sent?.headers.authorization, TEST_API_KEY);

    const listed = await gateway.request('/v1/templates', { headers: { authorization: TEST_API_KEY } });
    t.is(listed.status, 200);
    const { templates } = (await listed.json()) as { templates: { id: string; name: string; fields: Record<string, unknown> }[] };
    const saved = templates.find((template) => template.id === id);
    t.is(saved?.name, 'Dark welcome');
    const expected = Object.fromEntries(Object.entries(design).filter(([name]) => !MEMBER_FIELDS.includes(name)));
    t.deepEqual(saved?.fields, expected, 'the design, less the member\'s own fields');
    t.like(saved?.fields, { layout: 'welcome', borderColor: '#ff00aa' });

    // The template draws the card: the same card as the design with the member's fields given.
    const members = Object.fromEntries(Object.entries(design).filter(([name]) => MEMBER_FIELDS.includes(name)));
    const viaTemplate = await gateway.request('/v1/profile-image?userId=302050872383242240', postJson({ template: id, ...members }, { headers: { accept: 'image/png' } }));
    t.is(viaTemplate.status, 200);
    t.is(differentPixels(await previewPixels(page), decodePng(Buffer.from(await viaTemplate.arrayBuffer()))), 0, 'the saved template draws the previewed card');

    await page.$eval('#template-save', (node) => node.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-template.png') });
    t.log(`template screenshot: ${join(SCREENSHOTS, 'desktop-template.png')}`);
    t.deepEqual(reports.consoleErrors.filter((text) => !text.includes('400')), []);
    t.deepEqual(reports.pageErrors, []);
  } finally {
    await page.close();
  }
});

test.serial('Save as template in leaderboard mode saves the board\'s design as a leaderboard template, without its rows; it draws the previewed board', async (t) => {
  const { page, reports } = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    await page.click('#mode-leaderboard');
    await page.waitForSelector('#field-rows');
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const renders = await renderCount(page);
    await retype(page, '#field-scoreLabel', 'pts');
    await waitForRender(page, renders);
    const board = JSON.parse(await snippet(page, 'json'));
    t.like(board, { scoreLabel: 'pts' });

    await page.click('#save-template');
    await page.type('#template-name', 'Weekly board');
    await page.click('#template-save-apply');
    await page.waitForFunction(() => document.querySelector('#template-result')?.hidden === false);
    const id = await page.$eval('#template-result .template-id', (node) => node.textContent ?? '');
    const shown = await page.$eval('#template-result', (node) => node.textContent ?? '');
    t.true(shown.includes('leaderboard design') && shown.includes('rows'), shown);
    const sent = reports.requests.find((request) => request.url.endsWith('/v1/templates') && request.body?.includes('Weekly board'));
    t.is(JSON.parse(sent!.body!).kind, 'leaderboard');

    const saved = (await (await gateway.request(`/v1/templates/${id}`)).json()) as { kind: string; fields: Record<string, unknown> };
    const { rows, highlight, ...design } = board;
    t.is(saved.kind, 'leaderboard');
    t.deepEqual(saved.fields, design, 'the board less its rows and highlighted member');
    const viaTemplate = await boardFromApi({ template: id, rows, highlight });
    t.is(differentPixels(await previewPixels(page), decodePng(viaTemplate)), 0, 'the saved template draws the previewed board');
    await page.$eval('#template-save', (node) => node.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-leaderboard-template.png') });
    t.deepEqual(reports.pageErrors, []);
  } finally {
    await page.close();
  }
});

test.serial('importing a leaderboard body switches to leaderboard mode; at 390 px the board fits the screen', async (t) => {
  const { page } = await openPlayground(browser, gateway.url, { width: 390, height: 844 });
  try {
    const board = { title: 'Imported', rows: [{ rank: 1, name: 'Ada', level: 3, score: 10 }] };
    await page.click('#import-json');
    await page.$eval('#import-text', (area, text) => { area.value = text; }, JSON.stringify(board));
    await page.click('#import-apply');
    await page.waitForSelector('#field-rows');
    t.true(await page.$eval('#mode-leaderboard', (radio) => radio.checked));
    t.deepEqual(JSON.parse(await snippet(page, 'json')), board);
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    t.is(differentPixels(await previewPixels(page), decodePng(await boardFromApi(board))), 0);
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling');
    await page.$eval('#preview', (node) => node.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-leaderboard.png') });
  } finally {
    await page.close();
  }
});
