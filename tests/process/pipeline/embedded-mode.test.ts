import { readdirSync } from 'node:fs';
import test from 'ava';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { cardRenderedLines } from '../../helpers/processes.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { registerLeaderboardImageTests } from '../../support/pipeline/leaderboard-image-suite.ts';
import { registerProfileImageTests, SECOND_API_KEY, startPipelineImageServer, SUITE_ENV, type PipelineTarget, USER_ID } from '../../support/pipeline/profile-image-suite.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
let gateway: GatewayProcess;
let images: ImageServer;

test.before(async () => {
  images = await startPipelineImageServer();
  gateway = await startGatewayProcess({ env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RENDER_WORKERS: '2', ...SUITE_ENV, API_KEYS: `${API_KEY},${SECOND_API_KEY}` } });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

const target = (): PipelineTarget => ({
  url: gateway.url,
  apiKey: API_KEY,
  images,
  rendersOf: async (mediaKey) => (await target().renderLogOf(mediaKey)).length,
  renderLogOf: (mediaKey) => cardRenderedLines(() => [gateway.process.output()], mediaKey),
});

registerProfileImageTests(test, target, 'embedded');
registerLeaderboardImageTests(test, target, 'embedded');

test('embedded: cards are stored as <uuid>.png files in MEDIA_DIR', async (t) => {
  const response = await fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: 'on disk' }),
  });
  const body = (await response.json()) as { url: string };
  const name = body.url.split('/').pop()!;
  t.true(readdirSync(gateway.mediaDir).includes(name));
});

test('embedded: a loopback image without the allow-list is refused without being fetched', async (t) => {
  // No FETCH_ALLOW_PRIVATE_HOSTS: loopback is as forbidden as in production.
  const strict = await startGatewayProcess({ env: { API_KEYS: API_KEY } });
  try {
    const response = await fetch(`${strict.url}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      // A path no other test asks for: the shared image server serves the tests running beside this one.
      body: JSON.stringify({ customBackground: `${images.url}/only-the-strict-gateway.png` }),
    });
    const body = (await response.json()) as any;
    t.is(response.status, 422, JSON.stringify(body));
    t.regex(body.error.message, /^customBackground: /);
    t.false(images.requests.includes('/only-the-strict-gateway.png'), 'the image server saw no request');
  } finally {
    await strict.stop();
  }
});

test('embedded: render phases, image failures and pool load are in the gateway metrics', async (t) => {
  await fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customBackground: `${images.url}/page.png` }),
  });
  await fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: 'phases' }),
  });
  const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
  t.regex(metrics, /card_render_phase_seconds_bucket\{[^}]*phase="encode"/);
  t.regex(metrics, /card_image_failures_total\{reason="unsupported_format"\} [1-9]/);
  t.regex(metrics, /card_render_pool_load \d/);
});
