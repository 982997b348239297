import test from 'ava';
import { launchBrowser } from '../../../helpers/browser.ts';
import { startTestGateway, TEST_API_KEY } from '../../../helpers/test-gateway.ts';
import { openPlayground, renderCount, retype, snippet, waitForError, waitForRender } from '../../../support/gateway/playground/playground-page.ts';

declare const document: any;

/**
 * One card per 20 s: the first change after the first card is refused (typing it takes far less than
 * 20 s, even on a loaded machine), and drawn once the window allows it.
 */
const LIMITS = { RATE_LIMIT_PROFILE_IMAGE: '1/20s', RENDER_WORKERS: '1' };

test('a 429 is shown with its Retry-After countdown, nothing is sent while it runs, and the latest card comes once it ends', async (t) => {
  const gateway = await startTestGateway({ render: true, env: LIMITS });
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await gateway.close();
  });
  const { page, reports } = await openPlayground(browser, gateway.url, { width: 1280, height: 900 });
  const cardRequests = () => reports.requests.filter((request) => request.url.includes('/v1/profile-image'));

  await page.type('#api-key', TEST_API_KEY);
  await waitForRender(page, 0);
  t.regex(await page.$eval('#preview-status', (node) => node.textContent ?? ''), /0 of 1 cards left in this 20 s window/);

  await retype(page, '#field-customTag', 'Second card');
  const error = await waitForError(page);
  t.true(error.startsWith('429 rate_limited'), error);
  t.deepEqual(reports.cardStatuses, [200, 429]);
  await page.waitForFunction(() => /Rate limited: trying again in \d+ s\./.test(document.querySelector('#preview-status')?.textContent ?? ''), { timeout: 5000 });

  // A change made while waiting is not sent at once; it is what goes out when the wait ends.
  const sentBefore = cardRequests().length;
  await retype(page, '#field-customTag', 'Third card');
  // The page's own countdown moves on by two whole seconds: over a second of the page's clock since
  // the last keystroke, so its typing debounce (400 ms) has run and chose not to send.
  const countdownSeconds = () => page.$eval('#preview-status', (node) => Number(/trying again in (\d+) s/.exec(node.textContent ?? '')?.[1]));
  const typedAt = await countdownSeconds();
  t.true(typedAt > 2, `the countdown says ${typedAt} s`);
  await page.waitForFunction(
    (below: number) => Number(/trying again in (\d+) s/.exec(document.querySelector('#preview-status')?.textContent ?? '')?.[1]) <= below,
    { timeout: 30_000 },
    typedAt - 2,
  );
  t.is(cardRequests().length, sentBefore, 'nothing sent during the wait');

  await waitForRender(page, await renderCount(page), 45_000);
  t.is(cardRequests().length, sentBefore + 1, 'one request when the wait ended');
  t.is(JSON.parse(cardRequests().at(-1)!.body!).customTag, 'Third card');
  t.is(JSON.parse(await snippet(page, 'json')).customTag, 'Third card');
  t.true(await page.$eval('#preview-error', (node) => node.hasAttribute('hidden')), 'the error is gone with the new card');
});
