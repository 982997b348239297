import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../scripts/local-stack/service-process.ts';
import type { ImageServer } from './image-server.ts';
import { registerProfileImageTests, startPipelineImageServer, SUITE_ENV, type PipelineTarget, USER_ID } from './profile-image-suite.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
let gateway: ServiceProcess;
let images: ImageServer;
let mediaDir: string;
let url: string;

test.before(async () => {
  images = await startPipelineImageServer();
  mediaDir = mkdtempSync(join(tmpdir(), 'embedded-media-'));
  const port = await freeLoopbackPort();
  url = `http://127.0.0.1:${port}`;
  // No REDIS_URL: embedded mode, exactly what `pnpm start` runs.
  gateway = startServiceProcess({
    name: 'gateway',
    entry: GATEWAY_ENTRY,
    env: { PORT: String(port), HOST: '127.0.0.1', API_KEYS: API_KEY, MEDIA_DIR: mediaDir, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', RENDER_THREADS: '2', ...SUITE_ENV },
  });
  await gateway.waitFor(/gateway listening/, 60_000);
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
});

const target = (): PipelineTarget => ({
  url,
  apiKey: API_KEY,
  images,
  rendersOf: (mediaKey) => gateway.output().split('\n').filter((line) => line.includes('"card rendered"') && line.includes(mediaKey)).length,
});

registerProfileImageTests(test, target, 'embedded');

test('embedded: cards are stored as <uuid>.png files in MEDIA_DIR', async (t) => {
  const response = await fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: 'on disk' }),
  });
  const body = (await response.json()) as { url: string };
  const name = body.url.split('/').pop()!;
  t.true(readdirSync(mediaDir).includes(name));
});

test('embedded: a loopback image without the allow-list is refused without being fetched', async (t) => {
  const port = await freeLoopbackPort();
  const strict = startServiceProcess({
    name: 'strict-gateway',
    entry: GATEWAY_ENTRY,
    env: { PORT: String(port), HOST: '127.0.0.1', API_KEYS: API_KEY, MEDIA_DIR: mediaDir, LOG_LEVEL: 'info', RENDER_THREADS: '1' },
  });
  try {
    await strict.waitFor(/gateway listening/, 60_000);
    const seen = images.requests.length;
    const response = await fetch(`http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customBackground: `${images.url}/red.png` }),
    });
    const body = (await response.json()) as any;
    t.is(response.status, 422, JSON.stringify(body));
    t.regex(body.error.message, /^customBackground: /);
    t.is(images.requests.length, seen, 'the image server saw no request');
  } finally {
    await strict.stop();
  }
});

test('embedded: render phases, image failures and pool load are in the gateway metrics', async (t) => {
  await fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customBackground: `${images.url}/page.png` }),
  });
  await fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: 'phases' }),
  });
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.regex(metrics, /card_render_phase_seconds_bucket\{[^}]*phase="encode"/);
  t.regex(metrics, /card_image_failures_total\{reason="unsupported_format"\} [1-9]/);
  t.regex(metrics, /card_render_pool_load \d/);
});
