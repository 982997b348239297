import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { GATEWAY_ENV, startRendererProcess } from '../../support/faults/fault-topology.ts';

const mediaDirectory = mkdtempSync(join(tmpdir(), 'utility-api-faults-eviction-'));
let evicting: RunningRedis;
let configDisabled: RunningRedis;
const processes: Pick<ServiceProcess, 'stop'>[] = [];

test.before(async () => {
  [evicting, configDisabled] = await Promise.all([
    startRedisServer({ extraArgs: ['--maxmemory-policy', 'allkeys-lru'] }),
    // Managed Redis (ElastiCache, Memorystore...) often refuses CONFIG altogether.
    startRedisServer({ extraArgs: ['--rename-command', 'CONFIG', ''] }),
  ]);
});

test.after.always(async () => {
  await Promise.all(processes.map((service) => service.stop('SIGKILL')));
  await Promise.all([evicting?.stop(), configDisabled?.stop()]);
  rmSync(mediaDirectory, { recursive: true, force: true });
});

const envFor = (redis: RunningRedis, extra: Record<string, string> = {}) => ({ REDIS_URL: redis.url, MEDIA_DIR: mediaDirectory, ...extra });

const gateway = async (env: Record<string, string>, waitUntilListening: boolean) => {
  const started = await startGatewayProcess({ env: { ...GATEWAY_ENV, ...env }, waitUntilListening });
  processes.push(started);
  return started.process;
};
const renderer = async (env: Record<string, string>, waitUntilReady: boolean) => {
  const started = await startRendererProcess(env, { waitUntilReady });
  processes.push(started);
  return started;
};

/**
 * Starts services together and waits for every one, also when one fails: with Promise.all a failed
 * start would end the test while the others were still starting, unregistered, and they would
 * outlive the file (keeping its worker alive).
 */
async function startAll(starts: [Promise<ServiceProcess>, Promise<ServiceProcess>]): Promise<[ServiceProcess, ServiceProcess]> {
  const [first, second] = await Promise.allSettled(starts);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}

/** The pino lines of a process at one level (40 warn, 50 error, 60 fatal) that mention the policy. */
const policyLines = (service: ServiceProcess, level: number) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.includes(`"level":${level}`) && line.includes('maxmemory-policy'));

test('an evicting maxmemory-policy stops gateway and renderer at boot with a loud error', async (t) => {
  const [refusedGateway, refusedRenderer] = await startAll([gateway(envFor(evicting), false), renderer(envFor(evicting), false)]);
  for (const service of [refusedGateway, refusedRenderer]) {
    const exit = await service.exited;
    t.is(exit.code, 1, `${service.name} refused to start:\n${service.output().slice(-1500)}`);
    t.false(/gateway listening|renderer ready/.test(service.output()), `${service.name} never served`);
    const errors = policyLines(service, 50);
    t.is(errors.length, 1, `${service.name} logged the policy as an error`);
    t.regex(errors[0] ?? '', /allkeys-lru/);
    t.regex(errors[0] ?? '', /ALLOW_REDIS_EVICTION/);
  }
});

test('ALLOW_REDIS_EVICTION=true starts anyway, still logging the error', async (t) => {
  const env = envFor(evicting, { ALLOW_REDIS_EVICTION: 'true' });
  const services = await startAll([gateway(env, true), renderer(env, true)]);
  for (const service of services) {
    t.is(service.child.exitCode, null, `${service.name} is running`);
    t.is(policyLines(service, 50).length, 1, `${service.name} logged the policy as an error`);
  }
});

test('a Redis that refuses CONFIG (managed Redis) is a warning, and boot goes on', async (t) => {
  const services = await startAll([gateway(envFor(configDisabled), true), renderer(envFor(configDisabled), true)]);
  for (const service of services) {
    t.is(service.child.exitCode, null, `${service.name} is running`);
    const warnings = policyLines(service, 40);
    t.is(warnings.length, 1, `${service.name} warned:\n${service.output().slice(-1500)}`);
    t.regex(warnings[0] ?? '', /unknown command/i);
    t.is(policyLines(service, 50).length, 0);
  }
});
