import test from 'ava';
import { PRODUCER_COMMAND_TIMEOUT_MS } from '@utility-api/infra/redis';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { CHECK_TIMEOUT_MS } from '../../../services/gateway/src/http/router.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import {
  API_KEY,
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
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

/**
 * What a request may wait on a Redis that is down: at most one producer command's timeout (the
 * offline queue is off, so a refused connection fails at once), twice that for a loaded machine;
 * far below the render deadline a request that waited on Redis would run into.
 */
const PROMPT_MS = 2 * PRODUCER_COMMAND_TIMEOUT_MS;

let backing: Backing;
let images: ImageServer;
let gateway: GatewayProcess;
let renderer: ServiceProcess;
let cachedTag: string;

test.before(async () => {
  images = await startSlowImageServer(3000);
  backing = await startBacking();
  renderer = await startRendererProcess(backing.env);
  gateway = await startGatewayProcess({ env: { ...GATEWAY_ENV, ...backing.env } });
});

test.after.always(async () => {
  await Promise.all([gateway?.stop(), renderer?.stop('SIGTERM')]);
  await backing?.stop();
  await images?.close();
});

const rendererHealthUrl = () => /"health":"(http:[^"]+)"/.exec(renderer.output())?.[1];

test.serial('before the outage: cards render', async (t) => {
  cachedTag = uniqueTag('rendered before the outage');
  const response = await postCard(gateway.url, { customTag: cachedTag });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is((await timedFetch(`${gateway.url}/readyz`)).status, 200);
  // noeviction passes the boot check silently.
  t.false(gateway.process.output().includes('maxmemory-policy'));
  t.false(renderer.output().includes('maxmemory-policy'));
});

test.serial('Redis killed: a request waiting on a render gets a prompt 503 instead of waiting for the deadline', async (t) => {
  const fetching = images.nextRequest(SLOW_PATH);
  const pending = postCard(gateway.url, { customBackground: `${images.url}${SLOW_PATH}`, customTag: uniqueTag('in flight') });
  await fetching;
  const killedAt = performance.now();
  await backing.redis.kill();
  const response = await pending;
  const afterKill = performance.now() - killedAt;
  t.log(`in-flight request answered ${Math.round(afterKill)} ms after SIGKILL of Redis`);
  t.is(response.status, 503, JSON.stringify(response.body));
  t.is(response.body.error.code, 'queue_unavailable');
  t.truthy(response.headers.get('retry-after'));
  t.true(afterKill < PROMPT_MS, `answered within ${PROMPT_MS} ms of the kill`);
});

test.serial('Redis down: new cards and /readyz answer 503 with Retry-After promptly', async (t) => {
  const latencies: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const response = await postCard(gateway.url, { customTag: uniqueTag('during the outage') });
    latencies.push(response.ms);
    t.is(response.status, 503, JSON.stringify(response.body));
    t.is(response.body.error.code, 'queue_unavailable');
    t.is(response.headers.get('retry-after'), '1');
  }
  const ready = await timedFetch(`${gateway.url}/readyz`);
  t.log(`POST /v1/profile-image 503 in ${latencies.map(Math.round).join(', ')} ms; /readyz 503 in ${Math.round(ready.ms)} ms`);
  t.true(Math.max(...latencies) < PROMPT_MS, `every 503 within ${PROMPT_MS} ms`);
  t.is(ready.status, 503);
  t.is(ready.headers.get('retry-after'), '1');
  t.is(ready.body.checks.redis, 'unavailable');
  t.is(ready.body.checks.storage, 'ok');
  t.true(ready.ms < 5 * CHECK_TIMEOUT_MS, 'the readiness probe is bounded by its check timeout');
});

test.serial('Redis down: a card rendered minutes ago is still answered from the recent-render memory', async (t) => {
  const response = await postCard(gateway.url, { customTag: cachedTag });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.headers.get('x-card-render'), 'reused');
  t.true(response.ms < PROMPT_MS);
});

test.serial('Redis down: the light endpoints keep answering 200', async (t) => {
  for (const path of ['/v1/time', '/v1/coin-flip', '/healthz']) {
    const response = await timedFetch(`${gateway.url}${path}`, { headers: { authorization: API_KEY } });
    t.is(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
    t.true(response.ms < PROMPT_MS, `${path} answered in ${Math.round(response.ms)} ms`);
  }
  const status = await timedFetch(`${gateway.url}/v1/status`, { headers: { authorization: API_KEY } });
  t.is(status.status, 200, JSON.stringify(status.body));
  t.not(status.body.database.status, 'online');
});

test.serial('Redis restarted on the same port: gateway and renderer recover by themselves', async (t) => {
  const restartedAt = performance.now();
  await backing.restartRedis();
  const recovered = await eventually(async () => {
    const response = await postCard(gateway.url, { customTag: uniqueTag('after the restart') });
    return response.status === 200 ? response : undefined;
  }, 20_000, 250);
  const recoveryMs = performance.now() - restartedAt;
  t.log(`first 200 card ${Math.round(recoveryMs)} ms after redis-server was ready again`);
  t.is(recovered.headers.get('x-card-render'), 'new');
  t.is((await timedFetch(`${gateway.url}/readyz`)).status, 200);
  const health = rendererHealthUrl();
  t.truthy(health);
  t.is((await timedFetch(`${health}/readyz`)).status, 200);
  t.is(renderer.child.exitCode, null, 'the renderer was never restarted');
  t.is(gateway.process.child.exitCode, null, 'the gateway was never restarted');
});
