import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { PNG } from 'pngjs';

/*
 * The page's globals, for the callbacks puppeteer runs inside the browser. The project compiles for
 * Node (no DOM lib), so they are declared here, for this module only.
 */
declare const window: any;
declare const document: any;

/** What a page reported while a test drove it: console errors, uncaught errors, CSP violations. */
export interface PageReports {
  consoleErrors: string[];
  pageErrors: string[];
  /** Requests the page made, with the headers it sent (to check where the key went). */
  requests: { url: string; method: string; headers: Record<string, string>; body: string | undefined }[];
  /** Statuses of the card answers, in order. */
  cardStatuses: number[];
}

export interface PlaygroundPage {
  page: Page;
  reports: PageReports;
  /** CSP violations the page saw (`securitypolicyviolation` events), as `directive blocked-uri`. */
  violations(): Promise<string[]>;
}

/**
 * Opens `/playground` in a fresh page at a viewport, recording everything the page reports; the
 * form is built (from the OpenAPI document) when this resolves.
 */
export async function openPlayground(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
  /** Runs before the page loads (request interception, say). */
  prepare?: (page: Page) => Promise<void>,
): Promise<PlaygroundPage> {
  const page = await browser.newPage();
  await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  const reports: PageReports = { consoleErrors: [], pageErrors: [], requests: [], cardStatuses: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') reports.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => reports.pageErrors.push(error instanceof Error ? error.message : String(error)));
  page.on('request', (request: HTTPRequest) => {
    reports.requests.push({ url: request.url(), method: request.method(), headers: request.headers(), body: request.postData() });
  });
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && response.url().includes('/v1/profile-image')) reports.cardStatuses.push(response.status());
  });
  // Runs before the page's own scripts; CDP-injected, so the page's CSP does not apply to it.
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event: any) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await prepare?.(page);
  await page.goto(`${url}/playground`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('#card-form .field, #form-status.error-text');
  return {
    page,
    reports,
    violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  };
}

/** How many cards the preview has shown so far. */
export const renderCount = (page: Page) => page.$eval('#preview', (preview) => Number(preview.dataset.renders));

/** Waits until the preview shows a card newer than `after` renders. */
export async function waitForRender(page: Page, after: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (count: number) => {
      const preview = document.querySelector('#preview');
      return preview?.dataset.state === 'ready' && Number(preview.dataset.renders) > count;
    },
    { timeout },
    after,
  );
}

/** Waits until the preview reports an error. */
export async function waitForError(page: Page): Promise<string> {
  await page.waitForFunction(() => document.querySelector('#preview')?.dataset.state === 'error', { timeout: 30_000 });
  return page.$eval('#preview-error', (box) => box.textContent ?? '');
}

/** Replaces a text field's value the way a person does: select all, type the new text. */
export async function retype(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector, { count: 3 });
  await page.keyboard.press('Backspace');
  if (text !== '') await page.type(selector, text);
}

/** The snippet of a tab, as the page shows it. */
export async function snippet(page: Page, tab: 'curl' | 'discord-js' | 'discord-py' | 'json'): Promise<string> {
  await page.click(`[data-snippet="${tab}"]`);
  return page.$eval('#snippet-code', (code) => code.textContent ?? '');
}

export interface RawImage {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Buffer;
}

export function decodePng(png: Buffer): RawImage {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, data };
}

/**
 * The card the preview shows, as the page decoded it: its <img> drawn onto a canvas and read back.
 * (The blob itself cannot be fetched from the page: its CSP allows connections to the API only.)
 */
export async function previewPixels(page: Page): Promise<RawImage> {
  const { width, height, base64 } = await page.$eval('#preview-image', async (node) => {
    const image = node;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let index = 0; index < data.length; index += 0x8000) binary += String.fromCharCode(...data.subarray(index, index + 0x8000));
    return { width: canvas.width, height: canvas.height, base64: btoa(binary) };
  });
  return { width, height, data: Buffer.from(base64, 'base64') };
}

/**
 * Pixels that differ between two images of the same size. A canvas keeps colours premultiplied by
 * alpha, so partly transparent pixels (the card's rounded corners) come back a step off; opaque
 * pixels come back exact.
 */
export function differentPixels(shown: RawImage, expected: RawImage): number {
  if (shown.width !== expected.width || shown.height !== expected.height) return Number.POSITIVE_INFINITY;
  let different = 0;
  for (let offset = 0; offset < shown.data.length; offset += 4) {
    const alpha = expected.data[offset + 3] ?? 0;
    const tolerance = alpha === 255 ? 0 : Math.ceil(255 / Math.max(alpha, 1)) + 1;
    for (let channel = 0; channel < 4; channel += 1) {
      if (alpha === 0 && channel < 3) continue;
      if (Math.abs((shown.data[offset + channel] ?? 0) - (expected.data[offset + channel] ?? 0)) > tolerance) {
        different += 1;
        break;
      }
    }
  }
  return different;
}

/** Every field path the OpenAPI document lists for the card operation: query parameters, body fields, nested fields. */
export function documentedFields(document: any): { path: string; description: string }[] {
  const operation = document.paths['/v1/profile-image'].post;
  const fields = operation.parameters
    .filter((parameter: any) => parameter.in === 'query')
    .map((parameter: any) => ({ path: parameter.name as string, description: (parameter.description ?? '') as string }));
  // A shared schema may be a local `$ref` (`#/components/schemas/...`).
  const resolve = (schema: any): any =>
    typeof schema?.$ref === 'string' ? resolve(schema.$ref.slice(2).split('/').reduce((node: any, part: string) => node?.[part], document)) : schema;
  const walk = (schema: any, prefix: string) => {
    for (const [name, child] of Object.entries<any>(resolve(schema).properties ?? {})) {
      fields.push({ path: `${prefix}${name}`, description: resolve(child).description ?? '' });
      if (resolve(child).type === 'object') walk(child, `${prefix}${name}.`);
    }
  };
  walk(operation.requestBody.content['application/json'].schema, '');
  return fields;
}

/** Pixels of an image within `tolerance` (per channel) of a colour. */
export function countColour(image: RawImage, colour: [number, number, number], tolerance = 24, region?: { x: number; y: number; width: number; height: number }): number {
  const { x = 0, y = 0, width = image.width, height = image.height } = region ?? {};
  let count = 0;
  for (let row = y; row < y + height; row += 1) {
    for (let column = x; column < x + width; column += 1) {
      const offset = (row * image.width + column) * 4;
      if (colour.every((channel, index) => Math.abs((image.data[offset + index] ?? 0) - channel) <= tolerance)) count += 1;
    }
  }
  return count;
}

/** Distinct colours (quantised to 4 bits per channel) in a region: a blank or flat area has few. */
export function distinctColours(image: RawImage, region: { x: number; y: number; width: number; height: number }): number {
  const seen = new Set<number>();
  for (let row = region.y; row < region.y + region.height; row += 1) {
    for (let column = region.x; column < region.x + region.width; column += 1) {
      const offset = (row * image.width + column) * 4;
      seen.add((((image.data[offset] ?? 0) >> 4) << 8) | (((image.data[offset + 1] ?? 0) >> 4) << 4) | ((image.data[offset + 2] ?? 0) >> 4));
    }
  }
  return seen.size;
}
