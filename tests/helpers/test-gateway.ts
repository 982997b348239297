import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, Lifecycle } from '@utility-api/infra';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { fixedClock, type Clock } from '../../services/gateway/src/runtime/clock.ts';
import { cryptoRandomSource, type RandomSource } from '../../services/gateway/src/runtime/random-source.ts';
import { startGateway } from '../../services/gateway/src/server.ts';

export const TEST_API_KEY = 'test-key-0123456789abcdef';
export const OTHER_API_KEY = 'other-key-0123456789abcdef';

/** 2024-06-15T12:00:00.000Z, a Saturday in summer time in all three zones. */
export const FIXED_NOW_MS = Date.UTC(2024, 5, 15, 12, 0, 0);

export interface TestGateway {
  url: string;
  /** Where embedded mode stores card PNGs (a fresh temp folder per gateway). */
  mediaDir: string;
  /** fetch() against the gateway with the test key unless `headers.authorization` is given. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Response body as parsed JSON plus the response itself. */
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T; response: Response }>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  clock?: Clock;
  random?: RandomSource;
  env?: Record<string, string>;
}

/** A real gateway on a free loopback port, with a silent logger, closed by the returned function. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'gateway-media-'));
  const config = loadGatewayConfig({
    MEDIA_DIR: mediaDir,
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: `${TEST_API_KEY},${OTHER_API_KEY}`,
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const lifecycle = new Lifecycle();
  const logger = createLogger({ service: 'gateway-test', level: config.logLevel });
  const { url } = await startGateway(
    config,
    { clock: options.clock ?? fixedClock(FIXED_NOW_MS), random: options.random ?? cryptoRandomSource() },
    logger,
    lifecycle,
  );
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', TEST_API_KEY);
    return fetch(`${url}${path}`, { ...init, headers });
  };
  return {
    url,
    mediaDir,
    request,
    async json(path, init) {
      const response = await request(path, init);
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text), response };
    },
    async close() {
      await lifecycle.shutdown(5000);
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

/** JSON POST init for `request`/`json`. */
export function postJson(body: unknown, init: RequestInit = {}): RequestInit {
  return {
    ...init,
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** `response.json()` typed for assertions: tests check the shape themselves. */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
