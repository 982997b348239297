import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Redis } from 'ioredis';
import { RENDER_QUEUE_SHARDS_KEY } from '@utility-api/render-jobs';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { GATEWAY_ENV, startRendererProcess } from '../../support/faults/fault-topology.ts';

/**
 * Gateways and renderers must share RENDER_QUEUE_SHARDS: the first process to start records its
 * count in Redis, and a later one with another count refuses to start, naming both counts and how
 * to change it (docs/redis-cluster.md, "Sharded render queues").
 */
const mediaDirectory = mkdtempSync(join(tmpdir(), 'utility-api-faults-shards-'));
let redis: RunningRedis;
const processes: Pick<ServiceProcess, 'stop'>[] = [];

test.before(async () => {
  redis = await startRedisServer({});
});

test.after.always(async () => {
  await Promise.all(processes.map((service) => service.stop('SIGKILL')));
  await redis?.stop();
  rmSync(mediaDirectory, { recursive: true, force: true });
});

const envWith = (shards: number) => ({ REDIS_URL: redis.url, MEDIA_DIR: mediaDirectory, RENDER_QUEUE_SHARDS: String(shards) });
const gateway = async (shards: number, waitUntilListening: boolean) => {
  const started = await startGatewayProcess({ env: { ...GATEWAY_ENV, ...envWith(shards) }, waitUntilListening });
  processes.push(started);
  return started.process;
};
const renderer = async (shards: number, waitUntilReady: boolean) => {
  const started = await startRendererProcess(envWith(shards), { waitUntilReady });
  processes.push(started);
  return started;
};

test.serial('the first process records its shard count; a gateway and a renderer with another count refuse to start, saying why', async (t) => {
  const first = await renderer(3, true);
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());
  t.is(await client.get(RENDER_QUEUE_SHARDS_KEY), '3');
  // The same count starts as usual.
  const matching = await gateway(3, true);
  t.is(matching.child.exitCode, null);

  for (const refused of [await gateway(1, false), await renderer(2, false)]) {
    const exit = await refused.exited;
    t.is(exit.code, 1, `${refused.name} refused to start:\n${refused.output().slice(-1500)}`);
    t.false(/gateway listening|renderer ready/.test(refused.output()), `${refused.name} never served`);
    const fatal = refused.output().split('\n').filter((line) => line.includes('"level":60') && line.includes('RENDER_QUEUE_SHARDS'));
    t.is(fatal.length, 1, `${refused.name} logged the mismatch:\n${refused.output().slice(-1500)}`);
    t.regex(fatal[0] ?? '', /RENDER_QUEUE_SHARDS is [12] here but 3 in Redis/);
    t.regex(fatal[0] ?? '', new RegExp(`delete ${RENDER_QUEUE_SHARDS_KEY}`));
  }
  t.is(await client.get(RENDER_QUEUE_SHARDS_KEY), '3', 'a refused process leaves the record alone');
  t.is(first.child.exitCode, null, 'the running renderer is untouched');
});

test.serial('once every process is stopped and the record deleted, a new count starts', async (t) => {
  await Promise.all(processes.splice(0).map((service) => service.stop('SIGTERM')));
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());
  await client.del(RENDER_QUEUE_SHARDS_KEY);
  const started = await renderer(2, true);
  t.is(started.child.exitCode, null);
  t.is(await client.get(RENDER_QUEUE_SHARDS_KEY), '2');
});
