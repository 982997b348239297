import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, RENDERER_ENTRY } from '../../../scripts/local-stack/local-stack.ts';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import { startS3Server, type RunningS3 } from '../../../scripts/local-stack/s3-server.ts';
import { startServiceProcess, type ServiceProcess } from '../../../scripts/local-stack/service-process.ts';

export const API_KEY = 'faults-key-0123456789abcdef';
export const USER_ID = '302050872383242240';

/** Lets renderers fetch from the loopback image server; logs at info so tests can read them. */
export const BASE_ENV: Record<string, string> = {
  FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  LOG_LEVEL: 'info',
  RENDER_WORKERS: '1',
};

/** What a gateway process of these tests adds to the test environment: the suite's key and the renderers' settings. */
export const GATEWAY_ENV: Record<string, string> = { ...BASE_ENV, API_KEYS: API_KEY };

/**
 * A renderer process with its health server on a port of its own choosing (HEALTH_PORT=0; the
 * "renderer ready" line says which): a port picked here and bound later can be taken in between by
 * another process on a busy machine (EADDRINUSE).
 */
export async function startRendererProcess(env: Record<string, string>, options: { waitUntilReady?: boolean } = {}): Promise<ServiceProcess> {
  const renderer = startServiceProcess({
    name: 'renderer',
    entry: RENDERER_ENTRY,
    env: { ...BASE_ENV, ...env, HEALTH_PORT: '0' },
  });
  if (options.waitUntilReady !== false) {
    // A renderer that never got ready is not the caller's to stop: it is stopped here.
    await renderer.waitFor(/renderer ready/, 60_000).catch(async (error: unknown) => {
      await renderer.stop('SIGKILL');
      throw error;
    });
  }
  return renderer;
}

/**
 * Redis and an S3 server whose objects survive a restart, so tests can take either away and bring
 * it back on the same port.
 */
export interface Backing {
  redis: RunningRedis;
  s3: RunningS3;
  /** The environment gateway and renderers need to reach both. */
  env: Record<string, string>;
  restartRedis(): Promise<RunningRedis>;
  startS3(): Promise<RunningS3>;
  stop(): Promise<void>;
}

export async function startBacking(): Promise<Backing> {
  const s3Directory = mkdtempSync(join(tmpdir(), 'utility-api-faults-s3-'));
  const redisPort = await freeLoopbackPort();
  const s3Port = await freeLoopbackPort();
  const backing: Backing = {
    redis: await startRedisServer({ port: redisPort }),
    s3: await startS3Server({ port: s3Port, directory: s3Directory }),
    env: {},
    async restartRedis() {
      backing.redis = await startRedisServer({ port: redisPort });
      return backing.redis;
    },
    async startS3() {
      backing.s3 = await startS3Server({ port: s3Port, directory: s3Directory });
      return backing.s3;
    },
    async stop() {
      await backing.s3.stop().catch(() => {});
      await backing.redis.stop();
      rmSync(s3Directory, { recursive: true, force: true });
    },
  };
  backing.env = {
    REDIS_URL: backing.redis.url,
    S3_ENDPOINT: backing.s3.endpoint,
    S3_ACCESS_KEY: backing.s3.accessKey,
    S3_SECRET_KEY: backing.s3.secretKey,
    S3_BUCKET: 'cards',
  };
  return backing;
}

export interface TimedResponse {
  status: number;
  headers: Headers;
  body: any;
  ms: number;
}

/** One HTTP exchange with its duration, the body parsed as JSON when it is JSON. */
export async function timedFetch(url: string, init?: RequestInit): Promise<TimedResponse> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const ms = performance.now() - started;
  let body: unknown = text;
  if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text) as unknown;
  return { status: response.status, headers: response.headers, body, ms };
}

/** `POST /v1/profile-image` with the test key; a unique tag makes a fresh render. */
export function postCard(gatewayUrl: string, options: Record<string, unknown>): Promise<TimedResponse> {
  return timedFetch(`${gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
}


let uniqueCounter = 0;
/** A tag no earlier request used, so the card is rendered rather than reused. */
export const uniqueTag = (label: string) => `${label} ${process.pid}-${Date.now()}-${(uniqueCounter += 1)}`;
