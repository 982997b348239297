import test from 'ava';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import {
  postCard,
  startBacking,
  GATEWAY_ENV,
  startRendererProcess,
  timedFetch,
  uniqueTag,
  type Backing,
} from '../../support/faults/fault-topology.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { eventually } from '../../helpers/processes.ts';

/** Three attempts with 200 and 400 ms of backoff against a refused connection: a few seconds at most. */
const PROMPT_FAILURE_MS = 5000;

let backing: Backing;
let gateway: GatewayProcess;
let renderer: ServiceProcess;
let mediaUrl: string;
let mediaBytes: Buffer;

test.before(async () => {
  backing = await startBacking();
  renderer = await startRendererProcess(backing.env);
  gateway = await startGatewayProcess({ env: { ...GATEWAY_ENV, ...backing.env } });
});

test.after.always(async () => {
  await Promise.all([gateway?.stop(), renderer?.stop('SIGTERM')]);
  await backing?.stop();
});

const rendererHealthUrl = () => /"health":"(http:[^"]+)"/.exec(renderer.output())?.[1];

test.serial('before the outage: a card is stored and served', async (t) => {
  const response = await postCard(gateway.url, { customTag: uniqueTag('stored before the outage') });
  t.is(response.status, 200, JSON.stringify(response.body));
  mediaUrl = response.body.url;
  const media = await fetch(mediaUrl);
  t.is(media.status, 200);
  mediaBytes = Buffer.from(await media.arrayBuffer());
  t.true(mediaBytes.subarray(1, 4).equals(Buffer.from('PNG')));
});

test.serial('storage down: a new card fails with 503 storage_unavailable after the queue retries, promptly', async (t) => {
  await backing.s3.stop();
  const response = await postCard(gateway.url, { customTag: uniqueTag('during the storage outage') });
  t.log(`POST /v1/profile-image answered ${response.status} in ${Math.round(response.ms)} ms`);
  t.is(response.status, 503, JSON.stringify(response.body));
  t.is(response.body.error.code, 'storage_unavailable');
  t.is(response.headers.get('retry-after'), '2');
  t.true(response.ms < PROMPT_FAILURE_MS, `failed within ${PROMPT_FAILURE_MS} ms`);
  // The answer travels through Redis while the renderer's last log line is still in its stdout pipe:
  // wait for the line rather than read the output the moment the answer comes.
  const failedAttempts = () => renderer.output().split('\n').filter((line) => line.includes('"card render failed"') && line.includes('storage_unavailable')).length;
  await eventually(async () => (failedAttempts() >= 3 ? true : undefined), PROMPT_FAILURE_MS).catch(() => undefined);
  t.is(failedAttempts(), 3, 'the queue retried the job before failing it');
});

test.serial('storage down: /media answers 503 JSON, never a 500 or a broken image', async (t) => {
  for (const init of [{}, { method: 'HEAD' }, { headers: { 'if-none-match': '"anything"' } }] satisfies RequestInit[]) {
    const response = await timedFetch(mediaUrl, init);
    const what = `${init.method ?? 'GET'} ${JSON.stringify(init)}`;
    t.is(response.status, 503, what);
    t.regex(response.headers.get('content-type') ?? '', /^application\/json/, what);
    t.is(response.headers.get('retry-after'), '2', what);
    t.is(response.headers.get('etag'), null, `${what}: no validator for an image that was not served`);
    if (init.method !== 'HEAD') t.is(response.body.error.code, 'storage_unavailable', what);
    t.true(response.ms < PROMPT_FAILURE_MS, `${what} answered in ${Math.round(response.ms)} ms`);
  }
});

test.serial('storage down: gateway and renderer /readyz say so with 503', async (t) => {
  const ready = await timedFetch(`${gateway.url}/readyz`);
  t.is(ready.status, 503);
  t.deepEqual(ready.body.checks, { redis: 'ok', storage: 'unavailable' });
  const health = rendererHealthUrl();
  t.truthy(health);
  const rendererReady = await timedFetch(`${health}/readyz`);
  t.is(rendererReady.status, 503);
  t.deepEqual(rendererReady.body.checks, { redis: 'ok', storage: 'unavailable' });
});

test.serial('storage back: cards, media and readiness recover without restarting anything', async (t) => {
  const restartedAt = performance.now();
  await backing.startS3();
  const recovered = await eventually(async () => {
    const response = await postCard(gateway.url, { customTag: uniqueTag('after the storage outage') });
    return response.status === 200 ? response : undefined;
  }, 20_000, 250);
  t.log(`first 200 card ${Math.round(performance.now() - restartedAt)} ms after the S3 server was back`);
  t.is((await fetch(recovered.body.url)).status, 200);
  const media = await fetch(mediaUrl);
  t.is(media.status, 200);
  t.true(Buffer.from(await media.arrayBuffer()).equals(mediaBytes), 'the image stored before the outage is served whole');
  t.is((await timedFetch(`${gateway.url}/readyz`)).status, 200);
  t.is((await timedFetch(`${rendererHealthUrl()}/readyz`)).status, 200);
});
