import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import test from 'ava';
import type { Browser, HTTPRequest } from 'puppeteer-core';
import { launchBrowser } from '../../../helpers/browser.ts';
import { eventually } from '../../../helpers/processes.ts';
import { runWithInput } from '../../../helpers/image-tools.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/test-gateway.ts';
import {
  countColour,
  decodePng,
  differentPixels,
  distinctColours,
  documentedFields,
  openPlayground,
  previewPixels,
  renderCount,
  retype,
  snippet,
  waitForError,
  waitForRender,
  type PlaygroundPage,
} from '../../../support/gateway/playground/playground-page.ts';

/*
 * The page's globals, for the callbacks puppeteer runs inside the browser. The project compiles for
 * Node (no DOM lib), so they are declared here, for this module only.
 */
declare const window: any;
declare const document: any;
declare const navigator: any;

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../../..');

/** Where the screenshots go (kept after the run, to be looked at). */
const SCREENSHOTS = join(tmpdir(), 'playground-screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const MAGENTA: [number, number, number] = [0xff, 0x00, 0xaa];

let gateway: TestGateway;
let browser: Browser;
/** One page the serial tests below drive step by step, as a person would. */
let desktop: PlaygroundPage;

test.before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Enough card budget for every preview and check below.
  gateway = await startTestGateway({ render: true, env: { RATE_LIMIT_PROFILE_IMAGE: '600/60s' } });
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await gateway?.close();
});

/** What the API itself answers for a body, as the preview asks for it. */
async function cardFromApi(body: unknown, accept = 'image/png'): Promise<Buffer> {
  const response = await gateway.request('/v1/profile-image?userId=302050872383242240', postJson(body, { headers: { accept } }));
  if (response.status !== 200) throw new Error(`the API answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

test.serial('the page loads with no console error or CSP violation and builds a control for every documented field', async (t) => {
  desktop = await openPlayground(browser, gateway.url, DESKTOP);
  const { page, reports } = desktop;
  const openApi = await (await fetch(`${gateway.url}/v1/openapi.json`)).json();
  const documented = documentedFields(openApi);
  const fields = documented.map((field) => field.path);
  t.true(fields.includes('rankData.barColor') && fields.includes('userId') && fields.includes('layout'), 'the document lists query, body and nested fields');
  const missing = await page.evaluate(
    (paths: string[]) => paths.filter((path) => !document.querySelector(`[data-field="${path}"]`)?.querySelector('input, select, textarea')),
    fields,
  );
  t.deepEqual(missing, [], 'every field the document lists has a form control');
  const shown = await page.$$eval('#card-form [data-field]', (wrappers) => wrappers.map((wrapper) => wrapper.getAttribute('data-field')));
  t.deepEqual([...shown].sort(), [...fields].sort(), 'and the form has no control the document does not list');
  // Each field's whole description is on the page (the first sentence shown, the rest one click away).
  const undescribed = await page.evaluate(
    (fields: { path: string; description: string }[]) =>
      fields.filter(({ path, description }) => !document.querySelector(`[data-field="${path}"]`)?.textContent.includes(description.replaceAll('`', ''))).map(({ path }) => path),
    documented,
  );
  t.deepEqual(undescribed, []);
  await page.click('[data-field="customTag"] details.hint > summary');
  t.true(await page.$eval('[data-field="customTag"] details.hint > p', (node) => node.checkVisibility()), 'a click shows the whole description');
  // Without a key nothing is sent: the placeholder asks for one.
  t.is(await page.$eval('#preview-placeholder', (node) => node.textContent), 'Enter your API key to see the card.');
  t.false(reports.requests.some((request) => request.url.includes('/v1/profile-image')));
  t.deepEqual(reports.consoleErrors, []);
  t.deepEqual(reports.pageErrors, []);
  t.deepEqual(await desktop.violations(), []);
  // Only this gateway was asked for anything.
  t.deepEqual([...new Set(reports.requests.map((request) => new URL(request.url).origin))], [gateway.url]);
});

test.serial('entering the key shows the card the API draws for the same request, the key going only into Authorization', async (t) => {
  const { page, reports } = desktop;
  await page.type('#api-key', TEST_API_KEY);
  await waitForRender(page, 0);
  const shown = await previewPixels(page);
  const body = JSON.parse(await snippet(page, 'json'));
  t.like(body, { customTag: 'Welcome!', presenceStatus: 'online' }, 'the form starts from the document example');
  t.is(differentPixels(shown, decodePng(await cardFromApi(body))), 0, 'the preview is what the API answers for the JSON body shown');
  t.deepEqual(reports.cardStatuses, [200]);
  t.true((await page.$eval('#preview-image', (image) => image.src)).startsWith('blob:'));
  t.regex(await page.$eval('#preview-status', (node) => node.textContent ?? ''), /PNG .*KB in \d+ ms.*Alt text: Profile card for/);

  const cardRequests = reports.requests.filter((request) => request.url.includes('/v1/profile-image'));
  t.is(cardRequests.length, 1, 'typing the key sent one request (debounced)');
  t.is(cardRequests[0]?.headers.authorization, TEST_API_KEY);
  t.is(cardRequests[0]?.headers.accept, 'image/png');
  const leaks = reports.requests.filter((request) => request.url.includes(TEST_API_KEY) || request.body?.includes(TEST_API_KEY) || (request !== cardRequests[0] && JSON.stringify(request.headers).includes(TEST_API_KEY)));
  t.deepEqual(leaks, [], 'the key is in no URL, no body and no other request');
  t.is(await page.evaluate(() => sessionStorage.length), 0, 'not remembered unless asked');
  t.false((await snippet(page, 'curl')).includes(TEST_API_KEY), 'snippets name an environment variable, never the key');
  t.deepEqual(reports.consoleErrors, []);
  t.deepEqual(await desktop.violations(), []);
});

test.serial('changing the border colour and the layout changes the preview to what the API draws', async (t) => {
  const { page, reports } = desktop;
  const before = await previewPixels(page);
  let renders = await renderCount(page);
  await page.type('#field-borderColor', '#ff00aa');
  await waitForRender(page, renders);
  const magenta = await previewPixels(page);
  t.true(differentPixels(magenta, before) > 2000, 'the border colour changed the card');
  t.true(countColour(magenta, MAGENTA, 8) > 2000, 'the new card has a magenta border');
  t.is(countColour(before, MAGENTA, 8), 0);
  t.is(differentPixels(magenta, decodePng(await cardFromApi(JSON.parse(await snippet(page, 'json'))))), 0);

  renders = await renderCount(page);
  await page.click('[data-field="layout"] input[value="welcome"]');
  await waitForRender(page, renders);
  const welcome = await previewPixels(page);
  const body = JSON.parse(await snippet(page, 'json'));
  t.is(body.layout, 'welcome');
  t.true(differentPixels(welcome, magenta) > 2000, 'the layout changed the card');
  t.is(differentPixels(welcome, decodePng(await cardFromApi(body))), 0);
  t.true(await page.$eval('[data-field="rankData"]', (field) => field.classList.contains('inactive')), 'rankData is greyed out: the welcome layout does not draw it');

  // The screenshot's preview area is the card: its colours, not a blank box.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await page.$eval('#preview-image', (image) => {
    const rect = image.getBoundingClientRect();
    return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
  }));
  const screenshot = decodePng(Buffer.from(await page.screenshot({ path: join(SCREENSHOTS, 'desktop.png') })));
  t.log(`desktop screenshot: ${join(SCREENSHOTS, 'desktop.png')}`);
  t.true(box.width >= 500, `the preview is large on a desktop (${box.width} px)`);
  t.true(countColour(screenshot, MAGENTA, 30, box) > 500, 'the magenta border is on screen');
  t.true(distinctColours(screenshot, box) > 40, 'the preview area is not blank');
  const form = await page.$eval('.form-panel', (panel) => panel.getBoundingClientRect().right);
  t.true(form <= box.x, 'the preview sits beside the form');
  t.deepEqual(reports.consoleErrors, []);
});

test.serial('the tall welcome layout, scale 2 and the glass panel have controls; the preview takes the 16:9 shape and shows what the API draws', async (t) => {
  const { page, reports } = desktop;
  const layouts = await page.$$eval('[data-field="layout"] input[type="radio"]', (radios) => radios.map((radio) => radio.parentElement.textContent));
  t.true(layouts.includes('welcome-tall'), `layout choices: ${layouts.join(', ')}`);
  // Each new option sits in the group it belongs to, not in "More options".
  const groupOf = (field: string) => page.$eval(`[data-field="${field}"]`, (wrapper) => wrapper.closest('fieldset')?.querySelector('legend')?.textContent ?? '');
  t.is(await groupOf('scale'), 'Output');
  t.is(await groupOf('panel'), 'Background');

  let renders = await renderCount(page);
  await page.click('[data-field="layout"] input[value="welcome-tall"]');
  await waitForRender(page, renders);
  let body = JSON.parse(await snippet(page, 'json'));
  t.is(body.layout, 'welcome-tall');
  const tall = await previewPixels(page);
  t.deepEqual([tall.width, tall.height], [960, 540], 'the tall welcome card is 960x540');
  t.is(differentPixels(tall, decodePng(await cardFromApi(body))), 0, 'the preview is what the API draws');
  const shape = await page.$eval('#preview', (preview) => {
    const rect = preview.getBoundingClientRect();
    return rect.width / rect.height;
  });
  t.true(Math.abs(shape - 16 / 9) < 0.05, `the preview box is 16:9 (${shape.toFixed(3)})`);
  t.false(await page.$eval('[data-field="headline"]', (field) => field.classList.contains('inactive')), 'the tall welcome card draws the headline');
  t.true(await page.$eval('[data-field="rankData"]', (field) => field.classList.contains('inactive')), 'and not rankData');
  t.regex(await page.$eval('[data-field="rankData"] .layout-note', (note) => note.textContent), /profile and levelup layouts/);

  renders = await renderCount(page);
  await page.click('[data-field="scale"] input[value="2"]');
  await waitForRender(page, renders);
  body = JSON.parse(await snippet(page, 'json'));
  t.is(body.scale, 2);
  const hidpi = await previewPixels(page);
  t.deepEqual([hidpi.width, hidpi.height], [1920, 1080], 'scale 2 doubles it');
  t.regex(await page.$eval('#preview-full-size', (node) => node.textContent), /1920 × 1080/);

  renders = await renderCount(page);
  await page.click('[data-field="scale"] input[value=""]');
  await waitForRender(page, renders);
  renders = await renderCount(page);
  await page.click('[data-field="panel"] input[value="glass"]');
  await waitForRender(page, renders);
  body = JSON.parse(await snippet(page, 'json'));
  t.is(body.panel, 'glass');
  t.is(body.scale, undefined);
  t.is(differentPixels(await previewPixels(page), decodePng(await cardFromApi(body))), 0);

  // Back to the 3:1 welcome card the next tests start from.
  renders = await renderCount(page);
  await page.click('[data-field="panel"] input[value=""]');
  await waitForRender(page, renders);
  renders = await renderCount(page);
  await page.click('[data-field="layout"] input[value="welcome"]');
  await waitForRender(page, renders);
  const wide = await page.$eval('#preview', (preview) => {
    const rect = preview.getBoundingClientRect();
    return rect.width / rect.height;
  });
  t.true(Math.abs(wide - 3) < 0.05, `the preview box is 3:1 again (${wide.toFixed(3)})`);
  t.deepEqual(reports.consoleErrors, []);
  t.deepEqual(await desktop.violations(), []);
});

test.serial("a bad value shows the API's 400 message next to its field", async (t) => {
  const { page, reports } = desktop;
  await retype(page, '#field-usernameColor', '#12');
  const error = await waitForError(page);
  t.true(error.startsWith('400 invalid_request'), error);
  const body = JSON.parse(await snippet(page, 'json'));
  const { body: answer } = await gateway.json('/v1/profile-image?userId=302050872383242240', postJson(body));
  const problem = answer.error.details.find((detail: any) => detail.field === 'usernameColor');
  t.truthy(problem);
  t.is(await page.$eval('[data-field="usernameColor"] .field-error', (node) => node.textContent), problem.message);
  t.is(await page.$eval('#field-usernameColor', (input) => input.getAttribute('aria-invalid')), 'true');
  await page.screenshot({ path: join(SCREENSHOTS, 'desktop-error.png') });
  // Nested fields too: the problem lands on rankData.level.
  await retype(page, '#field-usernameColor', '#fff');
  await retype(page, '#field-rankData-level', '-3');
  // Typing '-3' may send '-' on its own first (a slow machine passes the debounce between keys),
  // whose answer says 'must be a whole number' until the answer for '-3' replaces it.
  await page
    .waitForFunction(
      (expected) => {
        const node = document.querySelector('[data-field="rankData.level"] .field-error');
        return node !== null && !node.hasAttribute('hidden') && node.textContent === expected;
      },
      { timeout: 30_000 },
      'must be 0 or more',
    )
    .catch(() => undefined);
  t.is(await page.$eval('[data-field="rankData.level"] .field-error', (node) => node.textContent), 'must be 0 or more');
  t.true(await page.$eval('[data-field="usernameColor"] .field-error', (node) => node.hasAttribute('hidden')), 'the fixed field is no longer marked');
  // Fixing it brings the preview back.
  const renders = await renderCount(page);
  await retype(page, '#field-rankData-level', '7');
  await waitForRender(page, renders);
  t.true(await page.$eval('#preview-error', (node) => node.hasAttribute('hidden')));
  t.deepEqual(await desktop.violations(), []);
  // The only console errors are Chrome's own lines for the 400 answers.
  t.true(reports.consoleErrors.every((line) => line.includes('status of 400')), reports.consoleErrors.join('\n'));
});

test.serial('the curl snippet, copied with the button and run by bash, gets the card; the bot snippets compile', async (t) => {
  const { page } = desktop;
  // Text that must survive three languages' quoting.
  let renders = await renderCount(page);
  await retype(page, '#field-customUsername', `O'Brien "the \\ bold" $HOME 🎉`);
  await waitForRender(page, renders);
  renders = await renderCount(page);
  const shown = await previewPixels(page);

  await browser.defaultBrowserContext().overridePermissions(gateway.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  await page.click('[data-snippet="curl"]');
  await page.click('#copy-snippet');
  await page.waitForFunction(() => document.querySelector('#copy-snippet')?.textContent === 'Copied');
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  t.is(curl, await snippet(page, 'curl'), 'the clipboard holds the snippet shown');
  t.true(curl.includes('$UTILITY_API_KEY') && !curl.includes(TEST_API_KEY));

  const directory = mkdtempSync(join(tmpdir(), 'playground-snippets-'));
  try {
    const { stderr } = await run('bash', ['-c', curl], { cwd: directory, env: { ...process.env, UTILITY_API_KEY: TEST_API_KEY } });
    t.is(stderr, '');
    const card = readFileSync(join(directory, 'card.png'));
    t.true(card.equals(await cardFromApi(JSON.parse(await snippet(page, 'json')))), 'curl got the card the API draws for the form');
    t.is(differentPixels(shown, decodePng(card)), 0, 'which is the card the preview shows');
    t.is(renders, await renderCount(page), 'the preview did not change meanwhile');

    const bot = join(directory, 'bot.mjs');
    writeFileSync(bot, await snippet(page, 'discord-js'));
    await t.notThrowsAsync(run(process.execPath, ['--check', bot]), 'node --check accepts the discord.js snippet');
    const botPy = join(directory, 'bot.py');
    writeFileSync(botPy, await snippet(page, 'discord-py'));
    await t.notThrowsAsync(run('python3', ['-m', 'py_compile', botPy]), 'python3 -m py_compile accepts the discord.py snippet');
    // Each snippet's options evaluate, in its own language, to the body the preview sent, less
    // rankData (the welcome layout chosen above does not draw it) and less the sample member's own
    // name and avatar: a bot sends each member's own objects instead.
    const { rankData, customUsername, customAvatar, ...body } = JSON.parse(await snippet(page, 'json'));
    t.truthy(rankData, 'the form does send rankData');
    t.is(customUsername, `O'Brien "the \\ bold" $HOME 🎉`);
    const python = readFileSync(botPy, 'utf8');
    const pythonOptions = /^CARD_OPTIONS = (\{[\s\S]*?^\})$/m.exec(python)![1]!;
    const evaluate = 'import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))';
    const { stdout: fromPython } = await runWithInput('python3', ['-c', evaluate], Buffer.from(pythonOptions));
    t.deepEqual(JSON.parse(fromPython), body, 'the Python literal is the body');
    t.false(python.includes('autoColorRank'), 'rankData.autoColorRank is left out with rankData (booleans: playground-design.test.ts)');
    const javascript = readFileSync(bot, 'utf8');
    t.true(javascript.includes('AttachmentBuilder') && javascript.includes('GuildMemberAdd') && javascript.includes("Accept: 'image/png'"));
    const javascriptOptions = /^const CARD_OPTIONS = (\{[\s\S]*?^\});$/m.exec(javascript)![1]!;
    t.regex(javascriptOptions, /^ {2}layout: "/m, 'plain keys are unquoted');
    t.deepEqual(vm.runInNewContext(`(${javascriptOptions})`), body, 'the JavaScript literal is the body');
    for (const code of [javascript, python]) t.false(code.includes("O'Brien") || (typeof customAvatar === 'string' && code.includes(customAvatar)), "no bot snippet carries the sample's name or avatar");
    // The discord.js bot as pasted, with a member joining (tests/support/docs/fake-discord-js.ts: a real
    // discord.js GuildMember): the card it posts names that member, from the objects it sent.
    const { stdout, stderr: botErrors } = await run(process.execPath, ['--import', join(ROOT, 'tests/support/docs/fake-discord-hooks.ts'), bot], {
      env: { ...process.env, FAKE_DISCORD_FOR: directory, UTILITY_API_KEY: TEST_API_KEY, DISCORD_TOKEN: 'not-a-real-token' },
    });
    const sent = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { kind: string; files?: { description: string }[] }).find((event) => event.kind === 'send');
    t.regex(sent?.files?.[0]?.description ?? '', /^Welcome card for Ada\b/, `${stdout.slice(0, 300)}\n${botErrors}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test.serial('choosing a format asks the API for that image type, and the snippets follow', async (t) => {
  const { page, reports } = desktop;
  const renders = await renderCount(page);
  await page.click('[data-field="format"] input[value="webp"]');
  await waitForRender(page, renders);
  const last = reports.requests.filter((request) => request.url.includes('/v1/profile-image')).at(-1)!;
  t.is(last.headers.accept, 'image/webp');
  t.is(JSON.parse(last.body!).format, 'webp');
  t.regex(await page.$eval('#preview-status', (node) => node.textContent ?? ''), /^WEBP /);
  t.is((await previewPixels(page)).width, 900);
  const curl = await snippet(page, 'curl');
  t.true(curl.includes("-H 'Accept: image/webp'") && curl.includes('-o card.webp'), curl);
  t.true((await snippet(page, 'discord-js')).includes("name: 'card.webp'"));
  t.true((await snippet(page, 'discord-py')).includes('filename="card.webp"'));
});

test.serial('a remembered key survives reloading the tab, and only then is it stored', async (t) => {
  const other = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    const { page } = other;
    await page.click('#api-key-remember');
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    t.deepEqual(await page.evaluate(() => Object.keys(window.sessionStorage)), ['utility-api-playground-key']);
    await page.reload({ waitUntil: 'networkidle0' });
    await waitForRender(page, 0);
    t.is(await page.$eval('#api-key', (input) => input.value), TEST_API_KEY);
    t.true(await page.$eval('#api-key-remember', (input) => input.checked));
    await page.click('#api-key-remember');
    t.is(await page.evaluate(() => window.sessionStorage.length), 0, 'unticking forgets it');
  } finally {
    await other.page.close();
  }
});

test.serial('a change made while a card is still on its way aborts that request; the newer card is shown', async (t) => {
  const other = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    const { page } = other;
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    // Hold the next card request in the browser, as a slow network would.
    await page.setRequestInterception(true);
    let held: HTTPRequest | undefined;
    const failures: string[] = [];
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      // The request for the whole new text: a slow machine may also send ones for part of it while it is typed.
      if (held === undefined && request.method() === 'POST' && request.url().includes('/v1/profile-image') && JSON.parse(request.postData() ?? '{}').customTag === 'Slow card') {
        held = request;
        return;
      }
      void request.continue();
    });
    page.on('requestfailed', (request) => failures.push(`${JSON.parse(request.postData() ?? '{}').customTag} ${request.failure()?.errorText}`));

    await retype(page, '#field-customTag', 'Slow card');
    await page.waitForFunction(() => document.querySelector('#preview')?.dataset.state === 'loading');
    // The page's state changes before the browser hands the request to this test's handler.
    await eventually(() => Promise.resolve(held), 30_000, 50).catch(() => undefined);
    t.truthy(held, 'the request is on its way');
    await retype(page, '#field-customTag', 'Newer card');
    await waitForRender(page, 1);
    // Requests for part of a typed text may be aborted too; the held one must be, the newest never.
    t.true(failures.includes('Slow card net::ERR_ABORTED'), `the slow request was aborted by the page: ${failures.join(', ')}`);
    t.false(failures.some((failure) => failure.startsWith('Newer card ')), failures.join(', '));
    t.regex(await page.$eval('#preview-image', (image) => image.alt), /\(Newer card\)/);
    // Letting the held request go now changes nothing: the page no longer listens for it. A change
    // made after it is drawn and shown as the one render it adds, and the held card never replaces it.
    const renders = await renderCount(page);
    await held!.continue().catch(() => undefined);
    await retype(page, '#field-customTag', 'Newest card');
    await waitForRender(page, renders);
    t.is(await renderCount(page), renders + 1);
    t.regex(await page.$eval('#preview-image', (image) => image.alt), /\(Newest card\)/);
    t.false(failures.some((failure) => failure.startsWith('Newest card ')), failures.join(', '));
  } finally {
    await other.page.close();
  }
});

test.serial('a field the document gains gets a control without a change to the page', async (t) => {
  // The served document, with three fields the API does not have (yet): a flag, an object shared
  // through a $ref, and a shape no control is made for.
  const served: any = await (await fetch(`${gateway.url}/v1/openapi.json`)).json();
  const body = served.paths['/v1/profile-image'].post.requestBody.content['application/json'].schema;
  body.properties.sparkles = { type: 'boolean', description: 'Adds sparkles. Default false.' };
  body.properties.frame = { $ref: '#/components/schemas/Frame' };
  body.properties.mood = { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'A mood.' };
  served.components.schemas.Frame = { type: 'object', required: ['width'], properties: { width: { type: 'integer', minimum: 1, maximum: 20, description: 'Frame width.' } } };
  const other = await openPlayground(browser, gateway.url, DESKTOP, async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/openapi.json')) void request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(served) });
      else void request.continue();
    });
  });
  try {
    const { page } = other;
    const fields = await page.$$eval('#card-form [data-field]', (wrappers) => wrappers.map((wrapper) => wrapper.getAttribute('data-field')));
    t.true(['sparkles', 'frame', 'frame.width', 'mood'].every((field) => fields.includes(field)), fields.join(', '));
    t.is(await page.$eval('[data-field="sparkles"]', (field) => field.closest('fieldset')?.querySelector('legend')?.textContent), 'More options');
    await page.click('#field-sparkles');
    await page.click('#field-frame');
    await page.type('#field-frame-width', '3');
    await page.type('#field-mood', '"calm"');
    t.like(JSON.parse(await snippet(page, 'json')), { sparkles: true, frame: { width: 3 }, mood: 'calm' });
    // The real API refuses them, and says so next to each.
    await page.type('#api-key', TEST_API_KEY);
    const error = await waitForError(page);
    t.true(error.startsWith('400 invalid_request'), error);
    for (const field of ['sparkles', 'frame', 'mood']) {
      t.is(await page.$eval(`[data-field="${field}"] > .field-error`, (node) => node.textContent), 'is not a known field', field);
    }
  } finally {
    await other.page.close();
  }
});

test.serial('without the card operation in the document the page says so', async (t) => {
  const served: any = await (await fetch(`${gateway.url}/v1/openapi.json`)).json();
  delete served.paths['/v1/profile-image'];
  delete served.paths['/v1/profile-image/{userId}'];
  const other = await openPlayground(browser, gateway.url, DESKTOP, async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/openapi.json')) void request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(served) });
      else void request.continue();
    });
  });
  try {
    t.regex(await other.page.$eval('#form-status', (node) => node.textContent), /no createProfileImage operation/);
    t.deepEqual(other.reports.pageErrors, []);
  } finally {
    await other.page.close();
  }
});

test.serial('a wrong key shows the 401 next to the key field', async (t) => {
  const other = await openPlayground(browser, gateway.url, DESKTOP);
  try {
    await other.page.type('#api-key', 'not-a-real-key-0123456789');
    const error = await waitForError(other.page);
    t.true(error.startsWith('401 unauthorized'), error);
    t.false(await other.page.$eval('[data-field="apiKey"] .field-error', (node) => node.hasAttribute('hidden')));
    t.deepEqual(await other.violations(), []);
  } finally {
    await other.page.close();
  }
});

test.serial('at 390 px the page does not scroll sideways and the preview shows the card', async (t) => {
  const phone = await openPlayground(browser, gateway.url, PHONE);
  try {
    const { page } = phone;
    await page.type('#api-key', TEST_API_KEY);
    await waitForRender(page, 0);
    const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
    t.true(widths.document <= PHONE.width && widths.body <= PHONE.width, JSON.stringify(widths));
    const box = await page.$eval('#preview-image', (image) => {
      const rect = image.getBoundingClientRect();
      return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
    });
    t.true(box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
    t.regex(await page.$eval('#preview-image', (image) => image.alt), /^Profile card for User 2240/, "the card's alt text is the image's");
    const screenshot = decodePng(Buffer.from(await page.screenshot({ path: join(SCREENSHOTS, 'phone.png') })));
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-full.png'), fullPage: true });
    t.log(`phone screenshots: ${join(SCREENSHOTS, 'phone.png')}, phone-full.png`);
    t.true(box.y + box.height <= PHONE.height, 'the card is on the first screen');
    t.true(distinctColours(screenshot, box) > 40, 'the preview area is not blank');
    // The default card's status dot: online green.
    t.true(countColour(screenshot, [0x23, 0xa5, 0x5a], 40, box) > 10, "the card's online dot is on screen");
    // The preview stays in sight while the form scrolls.
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-scrolled.png') });
    const top = await page.$eval('#preview-image', (image) => image.getBoundingClientRect().top);
    t.true(top >= 0 && top < 100, `the preview is still at the top after scrolling (${top})`);
    // Nor at the widths between a phone and a desktop.
    for (const width of [320, 600, 800, 979, 980, 1024]) {
      await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      t.true(scrollWidth <= width, `${scrollWidth} px of content at ${width} px`);
      if (width === 800) await page.screenshot({ path: join(SCREENSHOTS, 'tablet.png') });
    }
    t.deepEqual(phone.reports.consoleErrors, []);
    t.deepEqual(await phone.violations(), []);
  } finally {
    await phone.page.close();
  }
});
