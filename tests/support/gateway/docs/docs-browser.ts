import type { Browser, Page } from 'puppeteer-core';

/**
 * What the docs tests watch while a page is open: console errors, uncaught errors, CSP violations
 * (the `securitypolicyviolation` event, recorded from the first script on), and every request to
 * another origin than the gateway's. Requests elsewhere are refused, so a test can never leave the machine.
 */
export interface WatchedPage {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  foreignRequests: string[];
  cspViolations(): Promise<string[]>;
}

/** Browser-side globals used inside `page.evaluate` callbacks (the project's TypeScript has no DOM lib). */
declare const window: { __cspViolations?: string[] };
declare const document: { addEventListener(type: string, listener: (event: any) => void): void };

/** How long the renderer may take to show the document on a loaded machine. */
export const RENDER_TIMEOUT_MS = 30_000;

export async function openDocs(browser: Browser, gatewayUrl: string, viewport: { width: number; height: number }): Promise<WatchedPage> {
  const page = await browser.newPage();
  page.setDefaultTimeout(RENDER_TIMEOUT_MS);
  const origin = new URL(gatewayUrl).origin;
  const watched: WatchedPage = {
    page,
    consoleErrors: [],
    pageErrors: [],
    foreignRequests: [],
    cspViolations: async () => page.evaluate(() => window.__cspViolations ?? []),
  };
  page.on('console', (message) => {
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => watched.pageErrors.push(String(error)));
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) {
      void request.continue();
    } else {
      watched.foreignRequests.push(url);
      void request.abort('blockedbyclient');
    }
  });
  await page.evaluateOnNewDocument(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event: { violatedDirective: string; blockedURI: string; sample: string }) => {
      window.__cspViolations?.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  await page.setViewport(viewport);
  await page.goto(`${gatewayUrl}/docs`, { waitUntil: 'load' });
  // The renderer has read the document when its title heading is there.
  await page.waitForSelector('h1 ::-p-text(Utility API)');
  return watched;
}

/** The element id Scalar gives an operation's section ends with `/<METHOD><path>`. */
export function operationSelector(method: string, path: string): string {
  return `[id$="/${method.toUpperCase()}${path}"]`;
}

/** Every operation of the OpenAPI document, as method and path. */
export async function documentedOperations(gatewayUrl: string): Promise<{ method: string; path: string }[]> {
  const document = (await (await fetch(`${gatewayUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })));
}
