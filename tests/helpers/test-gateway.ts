import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, Lifecycle } from '@utility-api/infra';
import { createDiskMediaStore, type MediaStore } from '@utility-api/media-store';
import { createGatewayApp } from '../../services/gateway/src/app.ts';
import { defaultPublicBaseUrl, loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { inMemoryBackingStore, type BackingStore } from '../../services/gateway/src/runtime/backing-store.ts';
import { createGatewayMetrics } from '../../services/gateway/src/runtime/gateway-metrics.ts';
import { fixedClock, type Clock } from '../../services/gateway/src/runtime/clock.ts';
import { cryptoRandomSource, type RandomSource } from '../../services/gateway/src/runtime/random-source.ts';
import { listen, startGateway } from '../../services/gateway/src/server.ts';

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
  /** Every route the router serves, by path as registered (`/account/api/keys/:id/roll`), with its methods. */
  routes: readonly RegisteredRoute[];
}

interface RegisteredRoute {
  path: string;
  methods: readonly string[];
}

/** The router's routes, one per path (a path may be registered several times, once per method group). */
function registeredRoutes(router: { stack: readonly { path: string | RegExp; methods: readonly string[] }[] }): RegisteredRoute[] {
  const byPath = new Map<string, Set<string>>();
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const methods = byPath.get(layer.path) ?? new Set<string>();
    for (const method of layer.methods) methods.add(method);
    byPath.set(layer.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ path, methods: [...methods] }));
}

export interface TestGatewayOptions {
  /**
   * With the render path (render pool, fonts, media store and its sweeper) for tests that need cards
   * drawn; without it (the default) the app has the light endpoints, keys, limits, docs, media and
   * probes only, no canvas, fonts, render pool or queue, and starts in milliseconds.
   */
  render?: boolean;
  clock?: Clock;
  random?: RandomSource;
  env?: Record<string, string>;
  /** Without the render path: the store behind `/media/<uuid>.png`; an empty disk store in a temp folder unless given. */
  media?: MediaStore;
  /** Without the render path: what `/v1/status` and `/readyz` ping; process memory (always up) unless given. */
  backingStore?: BackingStore;
  /** Where the gateway's log lines go (at the configured LOG_LEVEL); stdout unless given. */
  logDestination?: Parameters<typeof createLogger>[0]['destination'];
}

/**
 * The environment every test gateway, in this process or its own, starts from: its data in its own
 * temp folder (never the repository's `.data`), loopback, the two test keys; a test's own `env` wins.
 */
export function testEnvironment(mediaDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    MEDIA_DIR: mediaDir,
    DATABASE_PATH: join(mediaDir, 'accounts.sqlite'),
    KEYS_FILE: join(mediaDir, 'api-keys.json'),
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: `${TEST_API_KEY},${OTHER_API_KEY}`,
    LOG_LEVEL: 'silent',
    ...env,
  };
}

/** The client half of a test gateway: requests with the test key, JSON bodies, and closing. */
function testClient(url: string, mediaDir: string, shutdown: () => Promise<void>, routes: readonly RegisteredRoute[]): TestGateway {
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', TEST_API_KEY);
    return fetch(`${url}${path}`, { ...init, headers });
  };
  return {
    url,
    mediaDir,
    routes,
    request,
    async json(path, init) {
      const response = await request(path, init);
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text), response };
    },
    async close() {
      await shutdown();
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

/**
 * A gateway in this process on a real HTTP server on a free loopback port, with a temp media
 * folder of its own and a fixed clock: the whole embedded gateway when `render` is set, else the
 * same app without the render path (see {@link TestGatewayOptions.render}).
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'test-gateway-'));
  const config = loadGatewayConfig(testEnvironment(mediaDir, options.env));
  const lifecycle = new Lifecycle();
  const logger = createLogger({ service: 'gateway-test', level: config.logLevel, ...(options.logDestination ? { destination: options.logDestination } : {}) });
  const runtime = { clock: options.clock ?? fixedClock(FIXED_NOW_MS), random: options.random ?? cryptoRandomSource() };
  const shutdown = () => lifecycle.shutdown(5000).then(() => undefined);
  if (options.render === true) {
    if (options.media !== undefined || options.backingStore !== undefined) throw new Error('a gateway with the render path opens its own media and backing store');
    const { url, router } = await startGateway(config, runtime, logger, lifecycle);
    return testClient(url, mediaDir, shutdown, registeredRoutes(router));
  }
  const media = options.media ?? lifecycle.add('media', await createDiskMediaStore({ directory: mediaDir, ttlMs: 86_400_000 }), (store) => store.close());
  const { port, serve } = await listen(config, lifecycle);
  const url = defaultPublicBaseUrl(config.host, port);
  const { app, router } = await createGatewayApp({
    config,
    runtime,
    logger,
    lifecycle,
    metrics: createGatewayMetrics(),
    redis: undefined,
    media,
    backingStore: options.backingStore ?? inMemoryBackingStore,
    publicBaseUrl: config.publicBaseUrl ?? url,
    rendering: undefined,
  });
  serve(app.callback());
  return testClient(url, mediaDir, shutdown, registeredRoutes(router));
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
